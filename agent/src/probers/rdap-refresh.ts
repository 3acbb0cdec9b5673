import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { loadBootstrap } from './domain-prober.js';
import {
  type Bootstrap,
  type BootstrapSource,
  type EnsureOutcome,
  RDAP_BOOTSTRAP,
} from './rdap-bootstrap.js';

/** The cache's file name in the agent's data directory. */
export const RDAP_CACHE_FILE = 'rdap-dns.json';
/** After a failed fetch, domain checks use what there is and the next fetch waits this long. */
export const RDAP_RETRY_AFTER_FAILURE_MS = 15 * 60_000;

/** What the cache file holds: IANA's dns.json as fetched, where from and when (the agent's clock). */
const cacheSchema = z.object({
  source: z.string(),
  fetched_at: z.iso.datetime(),
  bootstrap: z.looseObject({ services: z.array(z.tuple([z.array(z.string()), z.array(z.string())])) }),
});

/**
 * The RDAP bootstrap data domain checks use: the subset shipped with Lookout, replaced by IANA's
 * dns.json (`url`) once a domain check needs it. Nothing is fetched until then: an agent without domain
 * monitors never reaches out. Data younger than `maxAgeMs` is used as is (`maxAgeMs` 0: never fetch);
 * older data is fetched again by the next domain check, which waits for it. Fetched data is written to
 * `cacheFile` (a temporary file renamed over it, so a reader never sees half a file, even with two
 * agents on one directory); after a restart the first domain check reads it from there and fetches only
 * if it is too old, or from another `url`. A failed fetch keeps the data there is and is not retried for
 * RDAP_RETRY_AFTER_FAILURE_MS. Concurrent checks share one fetch.
 */
export const createRdapBootstrap = (opts: {
  url: string | null;
  maxAgeMs: number;
  cacheFile: string | null;
  now: () => number;
  load?: (url: string) => Promise<Bootstrap>;
  onFetched?: (services: number) => void;
  onCacheRead?: (services: number, ageMs: number) => void;
  onError?: (err: unknown) => void;
}): BootstrapSource => {
  const load = opts.load ?? ((url: string) => loadBootstrap(url));
  let current: Bootstrap = RDAP_BOOTSTRAP;
  /** When the data in `current` was fetched (null: the shipped subset). */
  let fetchedAt: number | null = null;
  let cacheRead = false;
  let failedAt: number | null = null;
  let inFlight: Promise<EnsureOutcome> | null = null;

  const fresh = () => {
    if (fetchedAt === null) return false;
    const age = opts.now() - fetchedAt;
    return opts.maxAgeMs === 0 || (age >= 0 && age < opts.maxAgeMs);
  };

  const readCache = async () => {
    if (!opts.cacheFile || !opts.url) return;
    try {
      const c = cacheSchema.parse(JSON.parse(await readFile(opts.cacheFile, 'utf8')));
      if (c.source !== opts.url || c.bootstrap.services.length === 0) return;
      current = c.bootstrap;
      fetchedAt = Date.parse(c.fetched_at);
      opts.onCacheRead?.(current.services.length, opts.now() - fetchedAt);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') opts.onError?.(err);
    }
  };

  const writeCache = async (url: string, data: Bootstrap, at: number) => {
    if (!opts.cacheFile) return;
    const tmp = `${opts.cacheFile}.${randomBytes(6).toString('hex')}.tmp`;
    const body = JSON.stringify({ source: url, fetched_at: new Date(at).toISOString(), bootstrap: data });
    try {
      await mkdir(dirname(opts.cacheFile), { recursive: true });
      await writeFile(tmp, body, { mode: 0o644 });
      await rename(tmp, opts.cacheFile);
    } catch (err) {
      opts.onError?.(err);
      await unlink(tmp).catch(() => {});
    }
  };

  const run = async (): Promise<EnsureOutcome> => {
    if (!cacheRead) {
      cacheRead = true;
      await readCache();
      if (fresh()) return 'cached';
    }
    const url = opts.url;
    if (!url || opts.maxAgeMs === 0) return 'off';
    if (failedAt !== null && opts.now() - failedAt < RDAP_RETRY_AFTER_FAILURE_MS) return 'failed';
    try {
      const next = await load(url);
      if (next.services.length === 0) throw new Error(`the bootstrap data at ${url} lists no services`);
      const at = opts.now();
      current = next;
      fetchedAt = at;
      failedAt = null;
      opts.onFetched?.(next.services.length);
      await writeCache(url, next, at);
      return 'fetched';
    } catch (err) {
      failedAt = opts.now();
      opts.onError?.(err);
      return 'failed';
    }
  };

  return {
    current: () => current,
    ensure() {
      if (fresh()) return Promise.resolve('fresh');
      inFlight ??= run().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
};
