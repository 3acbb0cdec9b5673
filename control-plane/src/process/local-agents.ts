import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock, Logger } from '@lookout/shared';
import { createAgentToken } from '../domain/agents/agent-tokens.js';
import type { Store } from '../store/port.js';

const AGENT_MAIN = fileURLToPath(new URL('../../../agent/dist/main.js', import.meta.url));

/**
 * The local agents' niceness unless LOOKOUT_AGENT_NICE says otherwise: on the one box they share, the
 * control plane's event loop (requests, result commits) goes first when the CPU is busy, and the agents
 * take the rest (docs/decisions.md, "Local agents yield the CPU").
 */
const LOCAL_AGENT_NICE = '10';

/** An agent up this long counts as started: its failure count starts again from zero. */
const STABLE_MS = 10_000;
/** This many failures in a row, each before STABLE_MS, make a local agent `failing` (logged as an error). */
const FAILING_AFTER = 3;
/** Restart waits: 1 s, doubled after each failure in a row, at most 30 s. */
const RESTART_BASE_MS = 1_000;
const RESTART_MAX_MS = 30_000;

/** How one local agent is doing, for the control plane's /healthz. */
export interface LocalAgentHealth {
  region: string;
  /** running: the process is up; restarting: waiting to start it again; failing: it keeps exiting. */
  state: 'running' | 'restarting' | 'failing' | 'stopped';
  /** Its metrics and health listener (0: a free port of its choice). */
  metrics_port: number;
  restarts: number;
  last_exit: { code: number | null; signal: string | null; reason: string | null; at: string } | null;
}

/**
 * Metrics ports of the local agents: with LOOKOUT_AGENT_METRICS_PORT set to P, the first agent listens
 * on P, the next on P + 1, and so on, in the order of LOOKOUT_LOCAL_AGENTS; unset or 0, each picks a
 * free port. (One port for all would leave every agent but the first unable to start.)
 */
export const localMetricsPorts = (base: string | undefined, count: number): number[] => {
  const p = base === undefined || base === '' ? 0 : Number(base);
  if (!Number.isInteger(p) || p < 0 || p + count - 1 > 65535)
    throw new Error(
      `LOOKOUT_AGENT_METRICS_PORT=${base}: must be 0 or a port from which the ${count} local agents count up (at most ${65536 - count})`,
    );
  return Array.from({ length: count }, (_, i) => (p === 0 ? 0 : p + i));
};

/** The last non-empty line of what a process wrote to stderr (its reason for exiting, usually). */
const lastLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1)
    ?.slice(0, 300) ?? null;

/**
 * `npm start` runs one agent process per region next to the control plane (LOOKOUT_LOCAL_AGENTS).
 * Each start makes fresh tokens and revokes the previous local ones (their values were never kept).
 * An agent that exits is restarted with a growing pause; one that keeps exiting soon after it starts
 * is logged as an error with its region and reason, and shows as `failing` in `health()`.
 */
export const startLocalAgents = async (deps: {
  regions: string[];
  rpcUrl: string;
  store: Store;
  clock: Clock;
  logger: Logger;
  allRegions: readonly string[];
  /** The environment the agents inherit (their own LOOKOUT_AGENT_* settings included). */
  env: NodeJS.ProcessEnv;
  /** The control plane's data directory: the agents keep their cache in `agent/` below it. */
  dataDir: string;
}) => {
  const log = deps.logger.child({ component: 'local-agents' });
  for (const region of deps.regions) {
    if (!deps.allRegions.includes(region))
      throw new Error(`LOOKOUT_LOCAL_AGENTS names unknown region ${region}`);
  }
  const ports = localMetricsPorts(deps.env.LOOKOUT_AGENT_METRICS_PORT, deps.regions.length);
  const children = new Map<string, ChildProcess>();
  const health = new Map<string, LocalAgentHealth & { failuresInARow: number }>();
  let stopping = false;
  for (const t of await deps.store.listAgentTokens()) {
    if (!t.revoked_at && t.name.startsWith('local ') && t.name.endsWith(' (npm start)')) {
      await deps.store.revokeAgentToken(t.id, deps.clock.now());
    }
  }
  const launch = (region: string, token: string) => {
    const h = health.get(region)!;
    const startedAt = Date.now();
    const child = spawn(process.execPath, [AGENT_MAIN], {
      env: {
        ...deps.env,
        LOOKOUT_AGENT_CONTROL_PLANE_URL: deps.rpcUrl,
        LOOKOUT_AGENT_TOKEN: token,
        LOOKOUT_AGENT_REGION: region,
        LOOKOUT_AGENT_INSTANCE_ID: `local-${region}`,
        LOOKOUT_AGENT_LOG_LEVEL: deps.env.LOOKOUT_AGENT_LOG_LEVEL ?? 'warn',
        LOOKOUT_AGENT_METRICS_PORT: String(h.metrics_port),
        LOOKOUT_AGENT_METRICS_HOST: deps.env.LOOKOUT_AGENT_METRICS_HOST ?? '127.0.0.1',
        LOOKOUT_AGENT_NICE: deps.env.LOOKOUT_AGENT_NICE ?? LOCAL_AGENT_NICE,
        // Their cache (RDAP bootstrap data) beside the store's file, shared by the local agents.
        LOOKOUT_AGENT_DATA_DIR: deps.env.LOOKOUT_AGENT_DATA_DIR ?? resolve(deps.dataDir, 'agent'),
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    // Passed on as before, and the tail kept: the reason an agent gives when it exits.
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      process.stderr.write(d);
      stderr = (stderr + d.toString('utf8')).slice(-4096);
    });
    children.set(region, child);
    if (h.state !== 'failing') h.state = 'running';
    const stable = setTimeout(() => {
      h.failuresInARow = 0;
      h.state = 'running';
    }, STABLE_MS).unref();
    child.once('close', (code, signal) => {
      clearTimeout(stable);
      children.delete(region);
      if (stopping) return;
      h.failuresInARow = Date.now() - startedAt < STABLE_MS ? h.failuresInARow + 1 : 1;
      h.restarts++;
      h.last_exit = { code, signal, reason: lastLine(stderr), at: new Date().toISOString() };
      const waitMs = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** (h.failuresInARow - 1));
      const fields = {
        region,
        code,
        signal,
        reason: h.last_exit.reason,
        restarts: h.restarts,
        retry_in_ms: waitMs,
      };
      if (h.failuresInARow >= FAILING_AFTER) {
        h.state = 'failing';
        log.error(
          fields,
          `local agent keeps failing (${h.failuresInARow} exits in a row soon after starting)`,
        );
      } else {
        h.state = 'restarting';
        log.warn(fields, 'local agent exited; restarting');
      }
      setTimeout(() => !stopping && launch(region, token), waitMs).unref();
    });
  };
  for (const [i, region] of deps.regions.entries()) {
    const { value } = await createAgentToken(
      deps.store,
      deps.allRegions,
      { region, name: `local ${region} agent (npm start)` },
      deps.clock.now(),
    );
    health.set(region, {
      region,
      state: 'restarting',
      metrics_port: ports[i]!,
      restarts: 0,
      last_exit: null,
      failuresInARow: 0,
    });
    launch(region, value);
  }
  log.info({ regions: deps.regions, metrics_ports: ports }, 'local agents started');
  return {
    /** Each local agent's state, restarts and last exit, in the order of LOOKOUT_LOCAL_AGENTS. */
    health(): LocalAgentHealth[] {
      return [...health.values()].map(({ failuresInARow: _f, ...h }) => ({ ...h }));
    },
    async stop() {
      stopping = true;
      for (const h of health.values()) h.state = 'stopped';
      const exits = [...children.values()].map((c) => new Promise((r) => c.once('close', r)));
      for (const c of children.values()) c.kill('SIGTERM');
      await Promise.all(exits);
    },
  };
};

export type LocalAgents = Awaited<ReturnType<typeof startLocalAgents>>;
