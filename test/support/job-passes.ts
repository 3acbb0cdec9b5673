import { waitFor } from './wait.js';

/**
 * A background job of a running control plane, as its metrics tell (`GET /metrics`, jobs.ts): how
 * many passes it finished, and when (on the service's clock, epoch ms) the last successful one started.
 */
export const jobMetrics = async (baseUrl: string, job: string) => {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (name: string, labels: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
    return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const startedS = value('lookout_job_last_pass_timestamp_seconds', `job="${job}"`);
  return {
    passes: value('lookout_job_passes_total', `job="${job}",outcome="ok"`) ?? 0,
    lastPassStartedAt: startedS === null ? null : Math.round(startedS * 1000),
  };
};

/**
 * Resolves once `job` has finished a pass that started at `atMs` or later on the service's clock: what
 * was due then has been handled, so "nothing more happened" can be asserted after it.
 */
export const jobPassed = (baseUrl: string, job: string, atMs: number) =>
  waitFor(
    () => jobMetrics(baseUrl, job),
    (m) => m.lastPassStartedAt !== null && m.lastPassStartedAt >= atMs,
    { what: `a pass of ${job} at ${new Date(atMs).toISOString()} or later`, everyMs: 10 },
  );
