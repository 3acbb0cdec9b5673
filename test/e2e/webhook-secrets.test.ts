import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type Receiver, startReceiver } from '../support/receivers.js';

/**
 * A webhook channel's URL (which may carry `?token=`) and its headers' values (`Authorization:
 * Bearer …`) are write-only through the real API, like every other kind's secrets: create, read and
 * list show hints; the notification still carries the real values; sending the hints back keeps them,
 * and a new URL needs the credentials entered again.
 */
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  h = await startHarness({ encryption_key: randomBytes(32).toString('base64') });
});
afterAll(async () => {
  await h?.close();
  await rx?.close();
});

const URL_TOKEN = 'url-token-5f2e9a77c1';
const BEARER = 'Bearer hdr-token-8c41d0e2b9';

describe('webhook channel secrets', () => {
  it('are never shown on create, read or list; the notification still carries them', async () => {
    const w = await h.workspace('hook-secrets');
    const url = rx.url(`/in?token=${URL_TOKEN}`);
    const created = await w.api('POST', '/channels', {
      json: {
        name: 'Pager hook',
        type: 'webhook',
        config: { url, headers: { Authorization: BEARER, 'X-Team': 'sre' } },
      },
    });
    expect(created.status, created.text).toBe(201);
    const origin = new URL(url).origin;
    const shown = {
      url: `${origin}/…${URL_TOKEN.slice(-4)}`,
      headers: { Authorization: `••••${BEARER.slice(-4)}`, 'X-Team': '••••' },
    };
    expect(created.body.config).toEqual(shown);
    const read = await w.api('GET', `/channels/${created.body.id}`);
    expect(read.body.config).toEqual(shown);
    const list = await w.api('GET', '/channels');
    for (const r of [created, read, list]) {
      expect(r.text).not.toContain(URL_TOKEN);
      expect(r.text).not.toContain('hdr-token');
    }
    // The kinds list says which fields are write-only.
    const kinds = await w.api('GET', '/channel-kinds');
    expect(kinds.body.data.find((k: { type: string }) => k.type === 'webhook').secrets).toEqual([
      'url',
      'headers.*',
    ]);

    const test = await w.api('POST', `/channels/${created.body.id}/test`);
    expect(test.body.ok, test.text).toBe(true);
    // The delivery log names the destination by its origin only.
    expect(test.body.attempts[0].target).toBe(`${origin}/…`);
    expect(test.text).not.toContain(URL_TOKEN);
    const hit = rx.on(`/in?token=${URL_TOKEN}`).at(-1)!;
    expect(hit.headers.authorization).toBe(BEARER);
    expect(hit.headers['x-team']).toBe('sre');
  });

  it('sent back as shown they are kept; one value can change alone; a new URL needs them again', async () => {
    const w = await h.workspace('hook-patch');
    const path = `/patch?token=${URL_TOKEN}`;
    const created = await w.api('POST', '/channels', {
      json: {
        name: 'Pager hook',
        type: 'webhook',
        config: { url: rx.url(path), headers: { Authorization: BEARER, 'X-Team': 'sre' } },
      },
    });
    const id = created.body.id;
    // What a form sends back unchanged: the hints.
    const same = await w.api('PATCH', `/channels/${id}`, { json: { config: created.body.config } });
    expect(same.status, same.text).toBe(200);
    expect(same.body.config).toEqual(created.body.config);
    // One header changed, the other sent back as its hint.
    const oneChanged = await w.api('PATCH', `/channels/${id}`, {
      json: { config: { headers: { ...created.body.config.headers, 'X-Team': 'platform' } } },
    });
    expect(oneChanged.status, oneChanged.text).toBe(200);
    expect((await w.api('POST', `/channels/${id}/test`)).body.ok).toBe(true);
    const hit = rx.on(path).at(-1)!;
    expect(hit.headers.authorization).toBe(BEARER);
    expect(hit.headers['x-team']).toBe('platform');

    // A new address with the credentials kept would send them to whoever runs it.
    const moved = await w.api('PATCH', `/channels/${id}`, {
      json: { config: { url: 'https://elsewhere.example/collect', headers: created.body.config.headers } },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'config.headers.Authorization',
      'config.headers.X-Team',
    ]);
    const movedOmitted = await w.api('PATCH', `/channels/${id}`, {
      json: { config: { url: 'https://elsewhere.example/collect' } },
    });
    expect(movedOmitted.status).toBe(422);
    // Entered again, it is accepted.
    const reentered = await w.api('PATCH', `/channels/${id}`, {
      json: {
        config: {
          url: 'https://elsewhere.example/collect',
          headers: { Authorization: 'Bearer new-one-1234' },
        },
      },
    });
    expect(reentered.status, reentered.text).toBe(200);
    expect(reentered.body.config).toEqual({
      url: 'https://elsewhere.example/…lect',
      headers: { Authorization: '••••1234' },
    });
    // A headerless webhook may move freely.
    const bare = await w.api('POST', '/channels', {
      json: { name: 'Bare hook', type: 'webhook', config: { url: rx.url('/bare') } },
    });
    const bareMoved = await w.api('PATCH', `/channels/${bare.body.id}`, {
      json: { config: { url: rx.url('/bare2') } },
    });
    expect(bareMoved.status, bareMoved.text).toBe(200);
  });

  it('stored sealed: the store holds neither the URL token nor the header value in plain text', async () => {
    const w = await h.workspace('hook-sealed');
    const created = await w.api('POST', '/channels', {
      json: {
        name: 'Pager hook',
        type: 'webhook',
        config: { url: rx.url(`/sealed?token=${URL_TOKEN}`), headers: { Authorization: BEARER } },
      },
    });
    const stored = await h.store.getChannel(w.workspace.id, created.body.id);
    expect(JSON.stringify(stored)).not.toContain(URL_TOKEN);
    expect(JSON.stringify(stored)).not.toContain('hdr-token');
  });
});
