import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBinary, freePort, type RunningBinary, startBinary } from './binaries.js';

/** Debian's prometheus, scraping the given targets every second, configured at test time. */
export interface Prometheus extends RunningBinary {
  url: string;
  /** An instant query; the result vector. */
  query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
}

export const startPrometheus = async (opts: {
  dir: string;
  jobs: { name: string; targets: string[] }[];
}): Promise<Prometheus> => {
  const bin = findBinary(['prometheus'], 'apt-get install -y prometheus (Debian/Ubuntu)');
  const data = join(opts.dir, 'prometheus-data');
  mkdirSync(data, { recursive: true });
  const config = join(opts.dir, 'prometheus.yml');
  // JSON is YAML: no YAML library needed.
  writeFileSync(
    config,
    JSON.stringify({
      global: { scrape_interval: '1s', scrape_timeout: '900ms' },
      scrape_configs: opts.jobs.map((j) => ({
        job_name: j.name,
        metrics_path: '/metrics',
        static_configs: [{ targets: j.targets }],
      })),
    }),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await startBinary(
    bin,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    `${url}/-/ready`,
  );
  return {
    ...running,
    url,
    async query(q) {
      const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await r.json()) as { status: string; data?: { result: [] }; error?: string };
      if (body.status !== 'success') throw new Error(`query ${q} failed: ${body.error}`);
      return body.data!.result;
    },
  };
};
