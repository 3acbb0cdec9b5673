import { connect } from 'node:net';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';

/** tcp checks: connect to host:port before the check's deadline, then close. */
export const createTcpProber = (opts: { blockPrivate?: boolean } = {}) => ({
  run(spec: ProbeSpec<'tcp'>, deadline: Deadline): Promise<ProbeOutcome> {
    const started = performance.now();
    if (opts.blockPrivate) {
      try {
        assertPublicLiteral(spec.url);
      } catch (e) {
        return Promise.resolve({ ok: false, error: classifyError(e), response_time_ms: 0 });
      }
    }
    return new Promise((resolve) => {
      const socket = connect({
        host: spec.url,
        port: spec.settings.port,
        ...(opts.blockPrivate ? { lookup: publicOnlyLookup } : {}),
      });
      const done = (o: ProbeOutcome) => {
        socket.destroy();
        deadline.onAbort(null);
        resolve(o);
      };
      const onAbort = () =>
        done({
          ok: false,
          error: { kind: 'timeout', message: 'timed out' },
          response_time_ms: performance.now() - started,
        });
      deadline.onAbort(onAbort);
      socket.once('connect', () => {
        const ms = performance.now() - started;
        done({
          ok: true,
          error: null,
          response_time_ms: ms,
          timings: { dns_ms: 0, connect_ms: ms, tls_ms: 0, first_byte_ms: 0, total_ms: ms },
        });
      });
      socket.once('error', (e) =>
        done({ ok: false, error: classifyError(e), response_time_ms: performance.now() - started }),
      );
    });
  },
});
