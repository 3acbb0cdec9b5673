import { expect } from 'vitest';
import type { Harness } from './harness.js';
import { type HarnessAgent, registerAgent } from './harness-agent.js';

/**
 * Results for the SLA report tests, sent as an agent of eu-west sends them (ReportResults over gRPC),
 * so ingestion decides each result's maintenance flag and the evaluation raises and resolves the real
 * `down` alerts, at the clock's time.
 */
export interface Check {
  monitorId: string;
  at: number;
  ok: boolean;
  ms: number;
}

export const slaFeeder = (h: Harness) => {
  let agent: Promise<HarnessAgent> | undefined;
  const send = async (checks: Check[], clockAt?: number) => {
    if (checks.length === 0) return;
    agent ??= registerAgent(h, 'eu-west', 'sla-agent');
    const { client, sessionId } = await agent;
    h.clock.set(clockAt ?? Math.max(...checks.map((c) => c.at)));
    const reply = await client.reportResults({
      instanceId: 'sla-agent',
      sessionId,
      results: checks.map((c) => ({
        resultId: '',
        monitorId: c.monitorId,
        monitorVersion: 1n,
        scheduledAtMs: BigInt(c.at),
        startedAtMs: BigInt(c.at),
        ok: c.ok,
        errorKind: c.ok ? '' : 'connect',
        errorMessage: c.ok ? '' : 'connection refused',
        responseTimeMs: c.ms,
      })),
    });
    expect(reply.accepted).toBe(checks.length);
  };
  return { send };
};

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];

/** A TCP monitor of eu-west that goes down at its first failure. */
export const createMonitor = async (api: Api, name: string, extra: Record<string, unknown> = {}) => {
  const r = await api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'tcp',
      url: `${name.replace(/[^a-z0-9]/gi, '').toLowerCase() || 'x'}.example.test`,
      port: 443,
      check_interval_seconds: 60,
      timeout_seconds: 5,
      failure_threshold: 1,
      check_locations: ['eu-west'],
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
};
