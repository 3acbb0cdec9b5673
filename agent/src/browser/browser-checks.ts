import type { Logger } from '@lookout/shared';
import { isExecutable } from '../config.js';
import type { Prober } from '../probe-port.js';
import { createBrowserPool } from './browser-pool.js';
import { createBrowserProber } from './browser-prober.js';
import { type GuardProxyOptions, startGuardProxy } from './guard-proxy.js';
import { runSandboxed, sandboxIsolation } from './run-sandboxed.js';

export interface BrowserChecksConfig {
  chromium_path: string | undefined;
  browser_concurrency: number;
  browser_memory_mb: number;
  browser_cpu_seconds: number;
  block_private_targets: boolean;
}

export interface BrowserChecks {
  prober: Prober<'browser'>;
  close(): Promise<void>;
}

/**
 * Browser checks on this agent, or null (the agent then does not declare `browser`) when no Chromium
 * is configured or the one named is not an executable file. Starts the guard proxy and logs the
 * sandbox's isolation as found here; Chromium itself starts with the first check.
 */
export const startBrowserChecks = async (
  config: BrowserChecksConfig,
  log: Logger,
  extra: { allow?: GuardProxyOptions['allow']; chromiumArgs?: readonly string[] } = {},
): Promise<BrowserChecks | null> => {
  const path = config.chromium_path;
  if (!path || !isExecutable(path)) {
    log.warn(
      { chromium: path ?? null },
      path
        ? 'no browser checks on this agent: LOOKOUT_AGENT_CHROMIUM_PATH is not an executable file'
        : 'no browser checks on this agent: no Chromium (install Debian’s chromium or set LOOKOUT_AGENT_CHROMIUM_PATH)',
    );
    return null;
  }
  const isolation = await sandboxIsolation();
  log.info(
    { chromium: path, concurrency: config.browser_concurrency, isolation },
    'browser checks: sandbox isolation',
  );
  const guard = await startGuardProxy({
    blockPrivate: config.block_private_targets,
    ...(extra.allow ? { allow: extra.allow } : {}),
  });
  const pool = createBrowserPool({
    executablePath: path,
    proxyUrl: guard.url,
    concurrency: config.browser_concurrency,
    log,
    ...(extra.chromiumArgs ? { extraArgs: extra.chromiumArgs } : {}),
  });
  const prober = createBrowserProber({
    pool,
    guard,
    runSandboxed,
    cpuSeconds: config.browser_cpu_seconds,
    memoryMb: config.browser_memory_mb,
    log,
  });
  return {
    prober,
    async close() {
      await pool.close();
      await guard.close();
    },
  };
};
