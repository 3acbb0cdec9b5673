import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';

/**
 * The monthly SLA report's schedule through the API (`GET/PUT /reports/schedule`, `POST
 * /reports/schedule/send-now`): admins only; a bad body is one 422 naming every bad field and stores
 * nothing; another workspace's users and records are unknown here. Its mail: report-schedule.test.ts.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const fields = (r: Reply) => (r.body?.error?.details ?? []).map((d: { field: string }) => d.field).sort();

describe('the monthly report schedule', () => {
  it('is off until saved; saved whole, read back, next month named; admins only', async () => {
    const w = await h.workspace('report-plan');
    const member = await w.userWithKey('member');
    const viewer = await w.userWithKey('viewer');
    const first = await w.api('GET', '/reports/schedule');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      enabled: false,
      recipient_user_ids: [],
      scope: { type: 'workspace', id: null },
      slo: 99.9,
      next_report_month: null,
      next_report_at: null,
      updated_at: null,
    });
    const group = (await w.api('POST', '/groups', { json: { name: 'Edge' } })).body;
    const saved = await w.api('PUT', '/reports/schedule', {
      json: {
        enabled: true,
        recipient_user_ids: [member.user.id, w.admin.id, member.user.id.toUpperCase()],
        scope: { type: 'group', id: group.id },
        slo: 99.95,
      },
    });
    expect(saved.status, saved.text).toBe(200);
    // The harness's clock is 2026-06-01 12:00 UTC: the first mail is June's, on July 1st.
    const expected = {
      enabled: true,
      recipient_user_ids: [member.user.id, w.admin.id],
      scope: { type: 'group', id: group.id },
      slo: 99.95,
      next_report_month: '2026-06',
      next_report_at: '2026-07-01T06:00:00.000Z',
      updated_at: h.clock.now().toISOString(),
    };
    expect(saved.body).toEqual(expected);
    expect((await w.api('GET', '/reports/schedule')).body).toEqual(expected);

    for (const key of [member.key, viewer.key]) {
      const as = w.as(key);
      expect((await as('GET', '/reports/schedule')).status).toBe(403);
      expect(
        (await as('PUT', '/reports/schedule', { json: { enabled: false, recipient_user_ids: [] } })).status,
      ).toBe(403);
      expect((await as('POST', '/reports/schedule/send-now')).status).toBe(403);
    }
    expect((await w.api('GET', '/reports/schedule')).body).toEqual(expected);

    // Send now without any mail server: each recipient's outcome says why.
    const tried = await w.api('POST', '/reports/schedule/send-now');
    expect(tried.status, tried.text).toBe(200);
    expect(tried.body.month).toBe('2026-05');
    expect(tried.body.recipients).toHaveLength(2);
    for (const x of tried.body.recipients) {
      expect(x.ok).toBe(false);
      expect(x.error).toMatch(/No mail transport configured/);
    }
    // The group it reports on deleted since: a 404 naming it, nothing sent.
    expect((await w.api('DELETE', `/groups/${group.id}`)).status).toBe(204);
    const gone = await w.api('POST', '/reports/schedule/send-now');
    expect(gone.status, gone.text).toBe(404);
    expect(gone.body.error.message).toMatch(/No group with this id/);
  });

  it('refuses a bad body in one 422 naming every field, storing nothing', async () => {
    const w = await h.workspace('report-bad');
    const before = (await w.api('GET', '/reports/schedule')).body;
    const bad = await w.api('PUT', '/reports/schedule', {
      json: {
        enabled: 'yes',
        recipient_user_ids: Array.from({ length: 51 }, () => w.admin.id),
        scope: { type: 'planet', id: 7 },
        slo: 100,
        extra: true,
      },
    });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['enabled', 'extra', 'recipient_user_ids', 'scope.id', 'scope.type', 'slo']);
    const shapes = await w.api('PUT', '/reports/schedule', {
      json: {
        enabled: true,
        recipient_user_ids: ['not-a-uuid'],
        scope: { type: 'tag', id: 'Bad Tag' },
        slo: 0,
      },
    });
    expect(shapes.status).toBe(422);
    expect(fields(shapes)).toEqual(['recipient_user_ids[0]', 'scope.id', 'slo']);
    const rules = await w.api('PUT', '/reports/schedule', {
      json: { enabled: true, recipient_user_ids: [], scope: { type: 'workspace', id: 'x' } },
    });
    expect(fields(rules)).toEqual(['recipient_user_ids', 'scope.id']);
    const noId = await w.api('PUT', '/reports/schedule', {
      json: { enabled: false, recipient_user_ids: [], scope: { type: 'monitor', id: null } },
    });
    expect(noId.status).toBe(422);
    expect(noId.body.error.details).toEqual([{ field: 'scope.id', message: 'is required for a monitor' }]);
    expect((await w.api('GET', '/reports/schedule')).body).toEqual(before);
    // Nothing saved: nothing to send.
    expect((await w.api('POST', '/reports/schedule/send-now')).status).toBe(409);
  });

  it("another workspace's users, groups, monitors, status pages and tags are unknown here", async () => {
    const w = await h.workspace('report-mine');
    const other = await h.workspace('report-theirs');
    const stranger = await other.userWithKey('member');
    const theirGroup = (await other.api('POST', '/groups', { json: { name: 'Theirs' } })).body;
    const made = await other.api('POST', '/monitors/create', {
      json: {
        display_name: 'Theirs',
        monitor_type: 'tcp',
        url: 'theirs.example.com',
        port: 22,
        tags: ['team:theirs'],
      },
    });
    expect(made.status, made.text).toBe(201);
    const page = await other.api('POST', '/status-pages', { json: { name: 'Theirs', slug: 'theirs' } });
    expect(page.status, page.text).toBe(201);
    const put = (scope: { type: string; id: string | null }, recipients = [w.admin.id]) =>
      w.api('PUT', '/reports/schedule', { json: { enabled: true, recipient_user_ids: recipients, scope } });

    const foreign = await put({ type: 'group', id: theirGroup.id }, [w.admin.id, stranger.user.id]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details).toEqual([
      { field: 'recipient_user_ids[1]', message: 'no user with this id in the workspace' },
      { field: 'scope.id', message: 'no group with this id in the workspace' },
    ]);
    expect((await put({ type: 'monitor', id: made.body.id })).body.error.details).toEqual([
      { field: 'scope.id', message: 'no monitor with this id in the workspace' },
    ]);
    expect((await put({ type: 'status_page', id: page.body.id })).body.error.details).toEqual([
      { field: 'scope.id', message: 'no status page with this id in the workspace' },
    ]);
    expect((await put({ type: 'tag', id: 'team:theirs' })).body.error.details).toEqual([
      { field: 'scope.id', message: 'no monitor carries this tag in the workspace' },
    ]);
    // Their own records are accepted in their workspace.
    const ok = await other.api('PUT', '/reports/schedule', {
      json: {
        enabled: true,
        recipient_user_ids: [stranger.user.id],
        scope: { type: 'tag', id: 'team:theirs' },
      },
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await w.api('GET', '/reports/schedule')).body.enabled).toBe(false);
  });
});
