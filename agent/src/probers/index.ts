import type { MonitorType } from '@lookout/shared';
import { applyAssertions, type Read } from '../assertions/index.js';
import type { Deadline, ProbeOutcome, Prober, ProbeSpec } from '../probe-port.js';
import type { AssertResponse } from './database-check.js';
import { createDnsProber } from './dns-prober.js';
import { createDomainProber } from './domain-prober.js';
import { createGrpcProber } from './grpc-prober.js';
import { createHttpProber, type HttpProberOptions } from './http-prober.js';
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
}

type ProberTable = { [T in MonitorType]: Prober<T> | null };

/**
 * A prober that tells what it read beside its outcome, run with the spec's assertions on that
 * reading (assertions/index.ts): the outcome fails `assertion_failed` when one does not hold.
 */
const asserting = <T extends 'grpc' | 'websocket', R>(
  p: { probe(spec: ProbeSpec<T>, deadline: Deadline): Promise<{ outcome: ProbeOutcome; reading: R | null }> },
  readOf: (reading: R) => Read,
): Prober<T> => ({
  async run(spec, deadline) {
    const { outcome, reading } = await p.probe(spec, deadline);
    const assertions = spec.settings.assertions;
    return reading && assertions.length > 0 ? applyAssertions(outcome, assertions, readOf(reading)) : outcome;
  },
});

/** Database checks: the query's first value is the response text assertions read. */
const databaseAssertions: AssertResponse = (outcome, response, spec) =>
  applyAssertions(outcome, (spec as ProbeSpec<'postgres'>).settings.assertions, { body: response.text });

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
    // What a grpc check read: the gRPC status code and the serving status's name (SERVING, …).
    grpc: asserting(createGrpcProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }), (r) => ({
      status_code: r.grpc_status,
      body: r.serving_status,
    })),
    // The handshake's status and the first message.
    websocket: asserting(
      createWebSocketProber({ blockPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }),
      (r) => ({
        status_code: r.status_code,
        ...(r.first_message !== null ? { body: r.first_message } : {}),
      }),
    ),
    smtp: createSmtpProber({
      blockPrivate,
      ...(opts.ca ? { ca: opts.ca } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    }),
    postgres: createPostgresProber({
      blockPrivate,
      assert: databaseAssertions,
      ...(opts.ca ? { ca: opts.ca } : {}),
    }),
    mysql: createMysqlProber({
      blockPrivate,
      assert: databaseAssertions,
      ...(opts.ca ? { ca: opts.ca } : {}),
    }),
    redis: createRedisProber({
      blockPrivate,
      assert: databaseAssertions,
      ...(opts.ca ? { ca: opts.ca } : {}),
    }),
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
