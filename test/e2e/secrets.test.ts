import { Writable } from 'node:stream';
import { createLogger, createSecretBox } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentEncoder } from '../../control-plane/src/rpc/wire.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Workspace secrets (`/api/v1/secrets`, docs/scripted-checks.md "Workspace secrets") through the real
 * API: roles, write-only values, the 422 of a monitor naming a secret not set, the sealed copies a
 * monitor keeps (never shown) and their rewrite when the value changes, the 409 of a used secret.
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let other: Awaited<ReturnType<Harness['workspace']>>;
const logged: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  });
  h = await startHarness({ log_level: 'debug' }, { logger: createLogger({ level: 'debug', destination }) });
  w = await h.workspace('secrets-a', 'business');
  other = await h.workspace('secrets-b', 'business');
}, 60_000);
afterAll(() => h.close());

const PAY = 'sk_live_first_value_9a7c';
const PAY2 = 'sk_live_second_value_f00d';
const fields = (r: { body: { error?: { details?: { field: string }[] } } }) =>
  (r.body.error?.details ?? []).map((d) => d.field).sort();
const multistep = (name: string, more: Record<string, unknown> = {}) => ({
  display_name: name,
  monitor_type: 'multistep',
  url: 'https://shop.example.com',
  steps: [
    { name: 'Home', method: 'GET', url: '{{url}}/' },
    {
      name: 'Pay',
      method: 'POST',
      url: '{{url}}/pay',
      headers: { Authorization: 'Bearer {{secrets.PAY_TOKEN}}', 'X-Who': '{{secrets.MISSING_ONE}}' },
      body: '{"card":"{{secrets.CARD}}"}',
    },
  ],
  ...more,
});
const wireOf = async (id: string) => {
  const m = await h.store.getMonitor(w.workspace.id, id);
  const a = assignmentEncoder(createSecretBox(h.config.encryption_key))(m!);
  return { version: Number(a.version), settings: a.spec?.settings };
};

describe('workspace secrets', () => {
  it('admins set and replace values; viewers and members read names and hints only; values never come back', async () => {
    const viewer = await w.userWithKey('viewer');
    const member = await w.userWithKey('member');
    expect((await w.as(viewer.key)('PUT', '/secrets/PAY_TOKEN', { json: { value: PAY } })).status).toBe(403);
    expect((await w.as(member.key)('PUT', '/secrets/PAY_TOKEN', { json: { value: PAY } })).status).toBe(403);
    const made = await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: PAY } });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      name: 'PAY_TOKEN',
      hint: '9a7c',
      created_at: '2026-06-01T12:00:00.000Z',
      updated_at: '2026-06-01T12:00:00.000Z',
      used_by: [],
    });
    h.clock.advance(60_000);
    const again = await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: 'short' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ hint: '', created_at: '2026-06-01T12:00:00.000Z' });
    expect(again.body.updated_at).toBe('2026-06-01T12:01:00.000Z');
    await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: PAY } });
    const list = await w.as(viewer.key)('GET', '/secrets');
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { name: string; hint: string }) => [s.name, s.hint])).toEqual([
      ['PAY_TOKEN', '9a7c'],
    ]);
    expect((await w.as(viewer.key)('GET', '/secrets/PAY_TOKEN')).body.name).toBe('PAY_TOKEN');
    expect((await w.as(viewer.key)('DELETE', '/secrets/PAY_TOKEN')).status).toBe(403);
    expect((await w.as(member.key)('DELETE', '/secrets/PAY_TOKEN')).status).toBe(403);
    for (const r of [made, again, list]) expect(r.text).not.toContain(PAY);
  });

  it("keeps another workspace's secrets invisible", async () => {
    expect((await other.api('GET', '/secrets/PAY_TOKEN')).status).toBe(404);
    expect((await other.api('GET', '/secrets')).body.data).toEqual([]);
    expect((await other.api('DELETE', '/secrets/PAY_TOKEN')).status).toBe(404);
    expect((await w.api('GET', '/secrets/PAY_TOKEN')).status).toBe(200);
  });

  it('refuses bad names, values and bodies with one 422 naming the field', async () => {
    for (const name of ['pay_token', '1PAY', 'PAY-TOKEN', `P${'A'.repeat(64)}`]) {
      const r = await w.api('PUT', `/secrets/${name}`, { json: { value: 'x' } });
      expect(r.status).toBe(422);
      expect(fields(r)).toEqual(['name']);
    }
    for (const json of [{ value: '' }, { value: 'x'.repeat(8193) }, {}, { value: 1 }]) {
      const r = await w.api('PUT', '/secrets/OK_NAME', { json });
      expect(r.status).toBe(422);
      expect(fields(r)).toEqual(['value']);
    }
    expect(fields(await w.api('PUT', '/secrets/OK_NAME', { json: { value: 'x', name: 'B' } }))).toEqual([
      'name',
    ]);
    expect(
      (await w.api('PUT', '/secrets/OK_NAME', { json: { value: '\u{1F600}'.repeat(8193) } })).status,
    ).toBe(422);
    expect(
      (await w.api('PUT', '/secrets/OK_NAME', { json: { value: '\u{1F600}'.repeat(8192) } })).status,
    ).toBe(201);
    expect((await w.api('DELETE', '/secrets/OK_NAME')).status).toBe(204);
    expect((await w.api('GET', '/secrets/OK_NAME')).status).toBe(404);
    expect((await w.api('DELETE', '/secrets/OK_NAME')).status).toBe(404);
  });

  it('refuses a monitor naming a secret not set, one detail per use, on create, batch and patch', async () => {
    const r = await w.api('POST', '/monitors/create', {
      json: multistep('Shop', { check_interval_seconds: 30, timeout_seconds: 60 }),
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual(
      expect.arrayContaining([
        {
          field: 'steps[1].headers.X-Who',
          message: 'names secret MISSING_ONE, which is not set in this workspace',
        },
        { field: 'steps[1].body', message: 'names secret CARD, which is not set in this workspace' },
        expect.objectContaining({ field: 'timeout_seconds' }),
      ]),
    );
    expect(fields(r)).not.toContain('steps[1].headers.Authorization');
    const batch = await w.api('POST', '/monitors/batch', { json: { monitors: [multistep('Shop')] } });
    expect(batch.status).toBe(422);
    expect(fields(batch)).toEqual(['monitors[0].steps[1].body', 'monitors[0].steps[1].headers.X-Who']);
    const browser = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Checkout',
        monitor_type: 'browser',
        url: 'https://shop.example.com',
        script: "await page.goto(url); await page.fill('#card', secrets['CARD']);",
      },
    });
    expect(browser.status).toBe(422);
    expect(browser.body.error.details).toEqual([
      { field: 'script', message: 'names secret CARD, which is not set in this workspace' },
    ]);
    // Nothing half-written.
    expect((await w.api('GET', '/monitors')).body.data).toEqual([]);
  });

  it('copies the sealed values onto the monitor, never shows them, and sends them to the agent; a new value bumps the monitor', async () => {
    await w.api('PUT', '/secrets/CARD', { json: { value: '4242424242424242' } });
    await w.api('PUT', '/secrets/MISSING_ONE', { json: { value: 'who-am-i' } });
    const made = await w.api('POST', '/monitors/create', { json: multistep('Shop checkout') });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const stored = await h.store.getMonitor(w.workspace.id, id);
    expect(Object.keys(stored!.settings.sealed_secrets as object).sort()).toEqual([
      'CARD',
      'MISSING_ONE',
      'PAY_TOKEN',
    ]);
    const before = await wireOf(id);
    expect(before.settings?.value).toMatchObject({
      secrets: { PAY_TOKEN: PAY, CARD: '4242424242424242', MISSING_ONE: 'who-am-i' },
    });
    const viewer = await w.userWithKey('viewer');
    for (const r of [
      made,
      await w.api('GET', `/monitors/${id}`),
      await w.api('GET', '/monitors'),
      await w.as(viewer.key)('GET', `/monitors/${id}`),
    ]) {
      expect(r.text).not.toContain('sealed');
      expect(r.text).not.toContain(PAY);
      expect(r.text).not.toContain(String(Object.values(stored!.settings.sealed_secrets as object)[0]));
    }
    expect((await w.api('GET', '/secrets/PAY_TOKEN')).body.used_by).toEqual([
      { id, display_name: 'Shop checkout' },
    ]);

    const changes = await h.store.latestMonitorChange();
    expect((await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: PAY2 } })).status).toBe(200);
    const after = await wireOf(id);
    expect(after.version).toBe(before.version + 1);
    expect(after.settings?.value).toMatchObject({ secrets: { PAY_TOKEN: PAY2, CARD: '4242424242424242' } });
    expect((await h.store.listMonitorChanges(changes, 10)).map((c) => c.monitor_id)).toContain(id);
    // A secret no monitor names changes no monitor.
    await w.api('PUT', '/secrets/UNUSED', { json: { value: 'x' } });
    expect((await wireOf(id)).version).toBe(after.version);

    // A patch that stops naming a secret drops its copy.
    const patched = await w.api('PATCH', `/monitors/${id}`, {
      json: { steps: [{ name: 'Pay', method: 'POST', url: '{{url}}/pay', body: '{{secrets.CARD}}' }] },
    });
    expect(patched.status).toBe(200);
    expect(
      Object.keys((await h.store.getMonitor(w.workspace.id, id))!.settings.sealed_secrets as object),
    ).toEqual(['CARD']);
    const bad = await w.api('PATCH', `/monitors/${id}`, {
      json: { steps: [{ name: 'Pay', method: 'POST', url: '{{url}}/{{secrets.NOPE}}' }] },
    });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['steps[0].url']);
  });

  it('refuses to delete a secret monitors use, naming them', async () => {
    const r = await w.api('DELETE', '/secrets/CARD');
    expect(r.status).toBe(409);
    expect(r.body.error.details).toEqual([{ field: 'monitors', message: 'used by Shop checkout' }]);
    expect((await w.api('GET', '/secrets/CARD')).status).toBe(200);
    expect((await w.api('DELETE', '/secrets/MISSING_ONE')).status).toBe(204);
  });

  it(`holds at most 100 secrets per workspace`, async () => {
    const have = (await other.api('GET', '/secrets')).body.data.length;
    for (let i = have; i < 100; i++)
      expect((await other.api('PUT', `/secrets/S${i}`, { json: { value: 'v' } })).status).toBe(201);
    const over = await other.api('PUT', '/secrets/ONE_MORE', { json: { value: 'v' } });
    expect(over.status).toBe(409);
    expect((await other.api('PUT', '/secrets/S5', { json: { value: 'w' } })).status).toBe(200);
  });

  it('never writes a value to the log', () => {
    const text = logged.join('');
    expect(text).toContain('/api/v1/secrets/PAY_TOKEN');
    for (const v of [PAY, PAY2, '4242424242424242', 'who-am-i']) expect(text).not.toContain(v);
  });
});
