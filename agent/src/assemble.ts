import { join } from 'node:path';
import type { Logger } from '@lookout/shared';
import { createAgent } from './agent.js';
import type { AgentConfig } from './config.js';
import { createAgentMetrics } from './metrics.js';
import type { Prober } from './probe-port.js';
import { createProbers, type Probers } from './probers/index.js';
import { createRdapBootstrap, RDAP_CACHE_FILE } from './probers/rdap-refresh.js';
import { realTimers, type Timers } from './scheduler.js';

/**
 * The probers with the types the agent declares at Register cut to those the operator offers
 * (`LOOKOUT_AGENT_CHECK_TYPES`); a type offered that this host cannot run is logged once and left out.
 */
export const offered = (probers: Probers, only: readonly string[] | undefined, logger: Logger): Probers => {
  if (!only) return probers;
  const cannot = only.filter((t) => !probers.types.includes(t as Probers['types'][number]));
  if (cannot.length > 0)
    logger.warn({ check_types: cannot }, 'offered check types this host cannot run are not declared');
  return {
    run: (spec, deadline) => probers.run(spec, deadline),
    types: probers.types.filter((t) => only.includes(t)),
  };
};

/**
 * An agent process's parts, from its configuration: the RDAP bootstrap data (fetched only when a domain
 * check needs it, cached in `data_dir`), the probers, the agent and its metrics. main.ts runs them;
 * tests drive them on their own timers.
 */
export const assembleAgent = (
  config: AgentConfig,
  deps: {
    logger: Logger;
    timers?: Timers /** The fping findFping found here (null: no ping checks). */;
    fping?: string | null;
    /** Browser checks (browser/browser-checks.ts), when this agent has Chromium. */
    browser?: Prober<'browser'> | null;
  },
) => {
  const { logger } = deps;
  const timers = deps.timers ?? realTimers;
  const rdapLog = logger.child({ component: 'rdap-bootstrap' });
  const rdap = createRdapBootstrap({
    url: config.rdap_bootstrap_url === 'off' ? null : config.rdap_bootstrap_url,
    maxAgeMs: config.rdap_refresh_hours * 3_600_000,
    cacheFile: config.data_dir ? join(config.data_dir, RDAP_CACHE_FILE) : null,
    now: () => timers.now(),
    onFetched: (services) => rdapLog.info({ services }, 'RDAP bootstrap data fetched'),
    onCacheRead: (services, ageMs) =>
      rdapLog.info(
        { services, age_hours: Math.round(ageMs / 360_000) / 10 },
        'RDAP bootstrap data read from the cache',
      ),
    onError: (err) =>
      rdapLog.warn(
        { err: (err as Error).message },
        'RDAP bootstrap data not loaded; keeping the data we have',
      ),
  });
  const metrics = createAgentMetrics({
    agent: config.instance_id,
    ...(config.region ? { region: config.region } : {}),
  });
  const agent = createAgent({
    config,
    logger,
    timers,
    prober: offered(
      createProbers({
        rdapBootstrap: rdap,
        blockPrivate: config.block_private_targets,
        fping: deps.fping ?? null,
        browser: deps.browser ?? null,
      }),
      config.check_types,
      logger,
    ),
    onCheck: metrics.onCheck,
    onLag: metrics.onLag,
    onRpcError: metrics.onRpcError,
  });
  metrics.attach(agent);
  return { agent, metrics };
};
