import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { checkPageDomain, type DomainLookup, freshProof, TAKEN } from './custom-domain-proof.js';
import type { StatusPage } from './status-page-store.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-domain-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T = new Date('2026-06-01T12:00:00Z');
const page = (slug: string): StatusPage => ({
  id: crypto.randomUUID(),
  workspace_id: 'w1',
  name: slug,
  slug,
  custom_domain: 'status.acme.test',
  ...freshProof('status.acme.test'),
  visibility: 'public',
  password_hash: null,
  cookie_secret: 'k',
  accent_color: null,
  auto_draft_incidents: false,
  components: [],
  created_at: T,
  updated_at: T,
});

it('two pages of a workspace claim a domain whose CNAME names the workspace: the first check wins, the second is told why', async () => {
  const store = createSqliteStore({ path: join(dir, 'race.db') });
  await store.init();
  const cname: DomainLookup = { txt: async () => [], cname: async () => ['w1.lookout.test'] };
  const [a, b] = [page('a'), page('b')];
  await store.insertStatusPage(a);
  await store.insertStatusPage(b);
  expect(await checkPageDomain(store, cname, a, 'w1.lookout.test', T)).toMatchObject({
    custom_domain_status: 'verified',
  });
  const second = await checkPageDomain(store, cname, b, 'w1.lookout.test', T);
  expect(second).toMatchObject({ custom_domain_status: 'failed', custom_domain_error: TAKEN });
  expect(await store.getStatusPage('w1', b.id)).toMatchObject({ custom_domain_status: 'failed' });
  expect((await store.getStatusPageByDomain('status.acme.test'))?.id).toBe(a.id);
  await store.close();
});
