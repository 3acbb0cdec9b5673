import type { MonitorType } from '@lookout/shared';
import type { Deadline, ProbeOutcome, Prober, ProbeSpec } from '../probe-port.js';
import { createDnsProber } from './dns-prober.js';
import { createDomainProber } from './domain-prober.js';
import { createGrpcProber } from './grpc-prober.js';
import { createHttpProber, type HttpProberOptions } from './http-prober.js';
import { createMultistepProber } from './multistep-prober.js';
import { createMysqlProber } from './mysql-prober.js';
import { createPingProber } from './ping-prober.js';
import { createPostgresProber } from './postgres-prober.js';
import type { BootstrapSource } from './rdap-bootstrap.js';
import { createRedisProber } from './redis-prober.js';
import { createSmtpProber } from './smtp-prober.js';
import { createTcpProber } from './tcp-prober.js';
import { createWebSocketProber } from './websocket-prober.js';

export interface ProbersOptions extends HttpProberOptions {
  rdapBaseUrl?: string;
  /** The RDAP bootstrap data, fetched and cached when domain checks need it (rdap-refresh.ts); the shipped subset when not given. */
  rdapBootstrap?: BootstrapSource;
  /** fping for ping checks, when findFping (fping.ts) found one that runs here; without it, no ping checks. */
  fping?: string | null;
  /** Browser checks, when this agent has Chromium (browser/browser-checks.ts); without, no browser checks. */
  browser?: Prober<'browser'> | null;
}

type ProberTable = { [T in MonitorType]: Prober<T> | null };

/**
 * One prober per check type, or null where this host cannot run the type (the agent then leaves it
 * out of the check types it declares at Register). A new type is its prober and one line here.
 */
const proberTable = (opts: ProbersOptions): ProberTable => {
  const http = createHttpProber(opts);
  const blockPrivate = opts.blockPrivate ?? false;
  return {
    http,
    api: http,
    tcp: createTcpProber({ blockPrivate }),
    dns: createDnsProber({ blockPrivate }),
    domain: createDomainProber({
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.rdapBaseUrl ? { rdapBaseUrl: opts.rdapBaseUrl } : {}),
      ...(opts.rdapBootstrap ? { bootstrap: opts.rdapBootstrap } : {}),
    }),
    ping: opts.fping ? createPingProber({ fping: opts.fping, blockPrivate }) : null,
    grpc: createGrpcProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
    websocket: createWebSocketProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
    smtp: createSmtpProber({
      blockPrivate,
      ...(opts.ca ? { ca: opts.ca } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    }),
    postgres: createPostgresProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
    mysql: createMysqlProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
    redis: createRedisProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
    multistep: createMultistepProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
    browser: opts.browser ?? null,
  };
};

export interface Probers extends Prober {
  /** The check types this agent can run (declared at Register). */
  readonly types: readonly MonitorType[];
}

export const createProbers = (opts: ProbersOptions = {}): Probers => {
  const table = proberTable(opts);
  const types = (Object.keys(table) as MonitorType[]).filter((t) => table[t] !== null);
  return {
    types,
    run(spec: ProbeSpec, deadline: Deadline): Promise<ProbeOutcome> {
      const prober = table[spec.monitor_type] as Prober | null;
      if (!prober)
        return Promise.resolve({
          ok: false,
          error: { kind: 'unsupported', message: `this agent cannot run ${spec.monitor_type} checks` },
          response_time_ms: 0,
        });
      return prober.run(spec, deadline);
    },
  };
};
