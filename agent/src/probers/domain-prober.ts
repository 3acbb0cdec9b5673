import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';
import { type Bootstrap, type BootstrapSource, RDAP_BOOTSTRAP } from './rdap-bootstrap.js';

const DAY_MS = 86_400_000;

/** The RDAP base URL for a domain's TLD from bootstrap data, or null. */
export const rdapBaseFor = (domain: string, bootstrap: Bootstrap = RDAP_BOOTSTRAP): string | null => {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  // longest matching suffix wins (e.g. co.uk before uk)
  for (let i = 1; i < labels.length; i++) {
    const suffix = labels.slice(i).join('.');
    const hit = bootstrap.services.find(([tlds]) => tlds.includes(suffix));
    if (hit?.[1][0]) return hit[1][0].endsWith('/') ? hit[1][0] : `${hit[1][0]}/`;
  }
  return null;
};

const getJson = (url: URL, signal: AbortSignal) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      headers: { accept: 'application/rdap+json, application/json', 'user-agent': 'Lookout/1' },
      agent: false,
      signal,
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: null });
        }
      });
    });
    req.once('error', reject);
    req.end();
  });

/** True once `work` is done, false if `signal` aborts first. */
const untilAborted = (work: Promise<unknown>, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });

/** Fetches fresh bootstrap data (IANA's dns.json format). */
export const loadBootstrap = async (
  url: string,
  signal = AbortSignal.timeout(10_000),
): Promise<Bootstrap> => {
  const r = await getJson(new URL(url), signal);
  const b = r.body as Bootstrap | null;
  if (r.status !== 200 || !Array.isArray(b?.services)) throw new Error(`no bootstrap data at ${url}`);
  return b;
};

/**
 * domain checks: registration expiry from RDAP (the `expiration` event). Domains change slowly, so
 * the control plane schedules these rarely and from one region.
 */
export const createDomainProber = (
  opts: { now?: () => Date; rdapBaseUrl?: string; bootstrap?: BootstrapSource } = {},
) => {
  const now = opts.now ?? (() => new Date());
  return {
    async run(spec: ProbeSpec<'domain'>, deadline: Deadline): Promise<ProbeOutcome> {
      const { signal } = deadline; // fetch takes an AbortSignal
      // Bootstrap data is fetched (or read from the agent's cache) only here, when a domain check
      // needs it; the check's deadline bounds the wait.
      if (!opts.rdapBaseUrl && opts.bootstrap && !(await untilAborted(opts.bootstrap.ensure(), signal))) {
        return {
          ok: false,
          error: { kind: 'timeout', message: 'timed out while loading the RDAP bootstrap data' },
          response_time_ms: 0,
        };
      }
      const started = performance.now();
      const base = opts.rdapBaseUrl ?? rdapBaseFor(spec.url, opts.bootstrap?.current());
      if (!base) {
        return {
          ok: false,
          error: { kind: 'rdap_failure', message: `no RDAP service known for ${spec.url}` },
          response_time_ms: 0,
        };
      }
      try {
        const url = new URL(
          `domain/${encodeURIComponent(spec.url.toLowerCase())}`,
          base.endsWith('/') ? base : `${base}/`,
        );
        // The signal is the check's deadline (deadline.ts).
        const r = await getJson(url, signal);
        const ms = performance.now() - started;
        if (r.status !== 200) {
          return {
            ok: false,
            error: { kind: 'rdap_failure', message: `RDAP answered ${r.status} for ${spec.url}` },
            response_time_ms: ms,
          };
        }
        const events =
          (r.body as { events?: { eventAction?: string; eventDate?: string }[] } | null)?.events ?? [];
        const exp = events.find((e) => e.eventAction === 'expiration')?.eventDate;
        const at = exp ? new Date(exp) : null;
        if (!at || Number.isNaN(at.getTime())) {
          return {
            ok: false,
            error: { kind: 'rdap_failure', message: 'the RDAP record has no expiration date' },
            response_time_ms: ms,
          };
        }
        const days = Math.floor((at.getTime() - now().getTime()) / DAY_MS);
        return {
          ok: true,
          error: null,
          response_time_ms: ms,
          domain: { expires_at: at.toISOString(), days_remaining: days },
        };
      } catch (e) {
        const err = classifyError(e);
        return {
          ok: false,
          error: err.kind === 'timeout' ? err : { kind: 'rdap_failure', message: err.message },
          response_time_ms: performance.now() - started,
        };
      }
    },
  };
};
