import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../control-plane/src/domain/alerts/alerts.js';
import { type Harness, startHarness } from '../support/harness.js';

/** Editing a maintenance window and ending it early (the web app's Maintenance page uses both). */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const MIN = 60_000;

describe('maintenance windows: edit and end early', () => {
  it('edits name and times, ends an active window now, and refuses what makes no sense', async () => {
    const w = await h.workspace('mw-edit');
    const viewer = await w.userWithKey('viewer');
    const now = h.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const win = await w.api('POST', '/maintenance-windows', {
      json: { name: 'upgrade', scope_type: 'workspace', starts_at: iso(now), ends_at: iso(now + 60 * MIN) },
    });
    expect(win.status).toBe(201);
    const path = `/maintenance-windows/${win.body.id}`;

    expect((await w.as(viewer.key)('PATCH', path, { json: { name: 'x' } })).status).toBe(403);
    const edited = await w.api('PATCH', path, {
      json: { name: 'db upgrade', ends_at: iso(now + 120 * MIN) },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      id: win.body.id,
      name: 'db upgrade',
      starts_at: iso(now),
      ends_at: iso(now + 120 * MIN),
      active: true,
    });
    // Every bad field is named; times are checked against each other as edited.
    const bad = await w.api('PATCH', path, { json: { name: '', starts_at: iso(now + 200 * MIN) } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['name']);
    const bad2 = await w.api('PATCH', path, { json: { starts_at: iso(now + 200 * MIN) } });
    expect(bad2.body.error.details).toEqual([{ field: 'ends_at', message: 'must be after starts_at' }]);
    const unknown = await w.api('PATCH', path, { json: { scope_type: 'monitor' } });
    expect(unknown.body.error.details).toEqual([{ field: 'scope_type', message: 'is not a known field' }]);

    // While it is active an alert is suppressed; after "end", the next one is not.
    const raise = (key: string) =>
      raiseAlert(
        h.store,
        {
          workspace_id: w.workspace.id,
          source_type: 'integration',
          source_id: 'src',
          cause: 'webhook',
          dedup_key: key,
          title: key,
          escalation_policy_id: null,
        },
        h.clock.now(),
      ).then((r) => r.alert);
    expect(
      (await w.api('GET', `/alerts/${(await raise('a')).id}`)).body.escalation.suppressed_by,
    ).not.toBeNull();
    h.clock.advance(5 * MIN);
    expect((await w.as(viewer.key)('POST', `${path}/end`)).status).toBe(403);
    const ended = await w.api('POST', `${path}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ ends_at: iso(now + 5 * MIN), active: false, name: 'db upgrade' });
    expect((await w.api('GET', `/alerts/${(await raise('b')).id}`)).body.escalation.suppressed_by).toBeNull();
    // An ended window can be neither ended again nor edited; it stays listed.
    expect((await w.api('POST', `${path}/end`)).status).toBe(409);
    expect((await w.api('PATCH', path, { json: { name: 'again' } })).status).toBe(409);
    expect((await w.api('GET', '/maintenance-windows')).body.data.map((x: { id: string }) => x.id)).toEqual([
      win.body.id,
    ]);

    // An upcoming window has nothing to end: 409, and the message says to delete it instead.
    const later = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'later',
        scope_type: 'workspace',
        starts_at: iso(now + 60 * MIN),
        ends_at: iso(now + 90 * MIN),
      },
    });
    const notYet = await w.api('POST', `/maintenance-windows/${later.body.id}/end`);
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.message).toMatch(/has not started; delete it/);
    expect((await w.api('POST', `/maintenance-windows/${crypto.randomUUID()}/end`)).status).toBe(404);
  });
});
