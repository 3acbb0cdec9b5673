import type { ChildProcess } from 'node:child_process';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import type { alertJson } from '../../control-plane/src/http/alerts/responses.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { type DatabaseServer, startMariadb, startPostgres, startRedis } from './support/databases.js';

/**
 * postgres, mysql and redis monitors end to end: created through the API with only the connection URL,
 * checked by a real agent process against Debian's servers, down with one alert naming the cause when
 * the server stops answering (SIGSTOP) or the query fails, resolved when it answers again. The URL's
 * password is never shown back.
 */
type AlertJson = ReturnType<typeof alertJson>;
type ResultJson = { ok: boolean; error_kind: string | null; error_message: string | null };

let h: Harness;
let agent: ChildProcess;
const servers: Partial<Record<'postgres' | 'mysql' | 'redis', DatabaseServer>> = {};

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 100 },
    { clock: systemClock },
  );
  [servers.postgres, servers.mysql, servers.redis] = await Promise.all([
    startPostgres(),
    startMariadb(),
    startRedis(),
  ]);
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  agent = (
    await startAgentProcess({
      rpcUrl: h.cp.rpcUrl,
      token,
      region: 'eu-west',
      instance: 'eu-db',
      ready: /assignments synced/,
    })
  ).child;
}, 120_000);
afterAll(async () => {
  agent?.kill('SIGTERM');
  if (agent) await exited(agent);
  for (const s of Object.values(servers)) {
    s.child.kill('SIGCONT');
    await s.stop();
  }
  await h?.close();
});

/** A query the server refuses, and what its refusal says. */
const failing = {
  postgres: { query: 'SELECT 1/0', says: 'division by zero' },
  mysql: { query: 'SELECT * FROM nowhere', says: "doesn't exist" },
  redis: { query: 'GET', says: 'wrong number of arguments' },
};

describe.each(['postgres', 'mysql', 'redis'] as const)('%s monitor checked by a real agent', (type) => {
  it('is up, goes down with one alert naming the cause, recovers; the password is never shown', async () => {
    const server = servers[type]!;
    const w = await h.workspace(`db-${type}`, 'e2e');
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: `${type} db`,
        monitor_type: type,
        url: server.url,
        check_interval_seconds: 1,
        timeout_seconds: 1,
        failure_threshold: 2,
        check_locations: ['eu-west'],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const m = created.body;
    expect(JSON.stringify(m)).not.toContain(server.password);
    expect(JSON.stringify((await w.api('GET', `/monitors/${m.id}`)).body)).not.toContain(server.password);

    const results = () =>
      w.api('GET', `/monitors/${m.id}/results?limit=20`).then((r) => r.body.data as ResultJson[]);
    await waitFor(results, (rs) => rs.some((r) => r.ok), { timeoutMs: 30_000, what: `an ok ${type} result` });

    const alerts = () => w.api('GET', `/alerts?source_id=${m.id}`).then((r) => r.body.data as AlertJson[]);
    server.child.kill('SIGSTOP');
    const [raised] = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), {
      timeoutMs: 30_000,
      what: `an alert for the stopped ${type} server`,
    });
    expect(raised).toMatchObject({ status: 'open', cause: 'down' });
    expect(raised!.description).toContain('timed out');
    const failed = (await results()).find((r) => !r.ok)!;
    expect(failed).toMatchObject({ error_kind: 'timeout' });

    server.child.kill('SIGCONT');
    const resolved = await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), {
      timeoutMs: 30_000,
      what: `the ${type} alert resolved`,
    });
    expect(resolved).toHaveLength(1);

    // A query the server refuses: down again, the alert in the server's words.
    const edited = await w.api('PATCH', `/monitors/${m.id}`, { json: { query: failing[type].query } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const again = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), {
      timeoutMs: 30_000,
      what: `an alert for the refused ${type} query`,
    });
    expect(again.find((a) => a.status === 'open')!.description).toContain(failing[type].says);
    expect((await results()).find((r) => !r.ok)).toMatchObject({ error_kind: 'query_failed' });
    for (const r of await results()) expect(JSON.stringify(r)).not.toContain(server.password);
  });
});
