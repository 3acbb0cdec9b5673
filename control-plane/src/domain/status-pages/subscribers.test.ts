import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox } from '@lookout/shared';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtures } from '../../../../test/contract/fixtures.js';
import type { Store } from '../../store/port.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { createIncident, postIncidentUpdate } from './incidents.js';
import { createStatusPage } from './status-pages.js';
import {
  confirmSubscription,
  MAIL_LEASE_MS,
  type OutgoingSubscriberMail,
  type SubscriberMailer,
  sendSubscriberMails,
  subscribe,
} from './subscribers.js';

/**
 * The subscribers' outbox on a real SQLite store, with the SMTP side replaced by a function that
 * records each mail and answers as a server would (ok, a temporary or a permanent failure): retries
 * after backoff, a replica that died holding a claim, a permanent failure dropped, drafts never sent.
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-subscribers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const box = createSecretBox(undefined);
const T0 = new Date('2026-06-01T12:00:00Z');
const plus = (ms: number) => new Date(T0.getTime() + ms);

let store: Store;
let n = 0;
let sent: OutgoingSubscriberMail[];
let answer: { ok: boolean; permanent: boolean; error: string | null };
const send: SubscriberMailer = async (_ws, mail) => {
  if (answer.ok) sent.push(mail);
  return answer;
};
const run = (now: Date) =>
  sendSubscriberMails({ store, box, send, now, pageUrl: async () => 'https://status.example.test' });

const setUp = async () => {
  store = createSqliteStore({ path: join(dir, `s${n++}.db`) });
  await store.init();
  const ws = fixtures.workspace();
  await store.createWorkspace(ws);
  const page = await createStatusPage(
    store,
    ws.workspace.id,
    { name: 'Acme', slug: 'acme', components: [] },
    T0,
    'localhost',
  );
  sent = [];
  answer = { ok: true, permanent: false, error: null };
  await subscribe(store, box, page, { email: 'r@example.test' }, T0);
  await run(T0);
  const token = /token=(\S+)/.exec(sent[0]!.text)![1]!;
  expect(await confirmSubscription(store, page, decodeURIComponent(token), T0)).not.toBeNull();
  sent = [];
  return { wsId: ws.workspace.id, page };
};

describe('the subscribers’ outbox', () => {
  let ctx: Awaited<ReturnType<typeof setUp>>;
  beforeEach(async () => {
    ctx = await setUp();
  });

  it('a temporary failure is retried after its backoff, not before, and sent once', async () => {
    await createIncident(store, ctx.wsId, ctx.page.id, { title: 'Down', message: 'x' }, plus(1000), 'u');
    answer = { ok: false, permanent: false, error: '421 try later' };
    await run(plus(2000));
    answer = { ok: true, permanent: false, error: null };
    await run(plus(2000 + 29_000));
    expect(sent).toEqual([]);
    await run(plus(2000 + 30_000));
    expect(sent.map((m) => m.subject)).toEqual(['[Acme] New incident: Down']);
    await run(plus(10 * 60_000));
    expect(sent).toHaveLength(1);
    await store.close();
  });

  it('a mail claimed by a replica that died is sent once its lease ends', async () => {
    await createIncident(store, ctx.wsId, ctx.page.id, { title: 'Down', message: 'x' }, plus(1000), 'u');
    // Another replica fans out and claims the mail, then dies before sending or finishing it.
    for (const e of await store.listMailEvents(10)) await store.fanOutMailEvent(e, plus(1000));
    const [m] = await store.listDueMails(plus(1000), 10);
    expect(await store.claimMail(m!, plus(1000 + MAIL_LEASE_MS))).toBe(true);
    await run(plus(1000 + MAIL_LEASE_MS - 1));
    expect(sent).toEqual([]);
    await run(plus(1000 + MAIL_LEASE_MS));
    expect(sent).toHaveLength(1);
    await store.close();
  });

  it('a permanent failure is dropped; drafts and updates of drafts mail nobody', async () => {
    const draft = await createIncident(
      store,
      ctx.wsId,
      ctx.page.id,
      { title: 'Draft', message: 'x', published: false },
      plus(1000),
      'u',
    );
    await postIncidentUpdate(
      store,
      ctx.wsId,
      ctx.page.id,
      draft.id,
      { status: 'identified', message: 'y' },
      plus(1500),
      'u',
    );
    expect(await store.listMailEvents(10)).toEqual([]);
    await createIncident(store, ctx.wsId, ctx.page.id, { title: 'Real', message: 'x' }, plus(2000), 'u');
    answer = { ok: false, permanent: true, error: '550 no such mailbox' };
    await run(plus(3000));
    expect(await store.listDueMails(plus(10 * 3_600_000), 10)).toEqual([]);
    await store.close();
  });
});
