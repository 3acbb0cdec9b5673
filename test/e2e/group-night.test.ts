import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type HarnessAgent, registerAgent } from '../support/harness-agent.js';
import { waitFor } from '../support/wait.js';

/**
 * The newcomer's night (issue 53, "Done means"): one recurring window silences a whole group's night.
 * Monitors of the group fail at 02:30 Berlin time and page no one; failing again at 05:00 they do. The
 * failures arrive as an agent sends them (ReportResults); the control plane's clock is the harness's.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let agent: Promise<HarnessAgent> | undefined;
const euAgent = () => {
  agent ??= registerAgent(h, 'eu-west', 'night-agent');
  return agent;
};

/** One result from eu-west for each monitor, checked now. */
const report = async (monitorIds: string[], ok: boolean) => {
  const now = BigInt(h.clock.now().getTime());
  const { client, sessionId } = await euAgent();
  const reply = await client.reportResults({
    instanceId: 'night-agent',
    sessionId,
    results: monitorIds.map((monitorId) => ({
      resultId: '',
      monitorId,
      monitorVersion: 1n,
      scheduledAtMs: now,
      startedAtMs: now,
      ok,
      errorKind: ok ? '' : 'connect',
      errorMessage: ok ? '' : 'connection refused',
      responseTimeMs: 10,
    })),
  });
  expect(reply.accepted).toBe(monitorIds.length);
};

describe('a newcomer silences a whole group’s night with one recurring window', () => {
  it('the group’s monitors failing at 02:30 local page no one; failing at 05:00 they do', async () => {
    h.clock.set('2026-06-09T12:00:00Z');
    const w = await h.workspace('night');
    const ch = await w.api('POST', '/channels', {
      json: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.test/night' } },
    });
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'p', steps: [{ wait_minutes: 0, notify_channel_ids: [ch.body.id] }], is_default: true },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const group = await w.api('POST', '/groups', { json: { name: 'Nightly batch' } });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const monitor = async (name: string, groupId?: string) => {
      const r = await w.api('POST', '/monitors/create', {
        json: {
          display_name: name,
          monitor_type: 'tcp',
          url: `${name}.example.test`,
          port: 443,
          check_interval_seconds: 60,
          failure_threshold: 1,
          check_locations: ['eu-west'],
          ...(groupId ? { group_id: groupId } : {}),
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    const members = [await monitor('etl', group.body.id), await monitor('warehouse', group.body.id)];
    const outsider = await monitor('shop');

    // One window: every night 02:00–05:00 in Berlin, for the group.
    const win = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'Batch night',
        scope_type: 'group',
        scope_id: group.body.id,
        schedule: '0 2 * * *',
        timezone: 'Europe/Berlin',
        duration_seconds: 3 * 3600,
      },
    });
    expect(win.status, JSON.stringify(win.body)).toBe(201);

    const alertsOf = async (id: string) =>
      (await w.api('GET', `/alerts?source_id=${id}&limit=100`)).body.data as {
        id: string;
        status: string;
      }[];
    const detail = async (id: string) => (await w.api('GET', `/alerts/${id}`)).body;
    const openAlert = async (id: string) => {
      const list = await waitFor(
        () => alertsOf(id),
        (l) => l.some((a) => a.status === 'open'),
        { what: `an open alert of ${id}` },
      );
      return detail(list.find((a) => a.status === 'open')!.id);
    };

    // 02:30 in Berlin (CEST) on 10 June: 00:30 UTC. Everything fails.
    h.clock.set('2026-06-10T00:30:00Z');
    await report([...members, outsider], false);
    for (const m of members) {
      const a = await openAlert(m);
      expect(a.escalation.suppressed_by).toEqual({ window_id: win.body.id, name: 'Batch night' });
      expect(a.escalation.next_step_at).toBeNull();
    }
    const loud = await openAlert(outsider);
    expect(loud.escalation.suppressed_by).toBeNull();
    expect(loud.escalation.next_step_at).not.toBeNull();

    // The batch recovers in the night; at 05:00 Berlin (03:00 UTC) it fails again, and pages.
    h.clock.set('2026-06-10T01:30:00Z');
    await report(members, true);
    for (const m of members)
      await waitFor(
        () => alertsOf(m),
        (l) => l.every((a) => a.status === 'resolved'),
        { what: 'the night’s alerts resolved' },
      );
    h.clock.set('2026-06-10T03:00:00Z');
    await report(members, false);
    for (const m of members) {
      const a = await openAlert(m);
      expect(a.escalation.suppressed_by).toBeNull();
      expect(a.escalation.next_step_at).not.toBeNull();
    }
  });
});
