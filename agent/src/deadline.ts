import type { ProbeOutcome, Prober, ProbeSpec } from './probe-port.js';
import type { Timers } from './scheduler.js';

/** How long a prober that ignores its aborted signal may still hold its slot. */
export const BACKSTOP_MS = 1000;

/**
 * One run of a prober under the check's one deadline: a single timer that, at `spec.timeout_ms`,
 * aborts the prober's signal with the `TimeoutError` probers report as a timeout. Probers arm no
 * timers of their own. The hard backstop (a prober that ignores its signal still frees its slot
 * `BACKSTOP_MS` later, failing with a `TimeoutError` of timeout + 1 s) costs a second timer only
 * once the abort has fired. Rejects only from the backstop or a throwing prober.
 */
export const probeWithDeadline = (prober: Prober, spec: ProbeSpec, timers: Timers): Promise<ProbeOutcome> =>
  new Promise((resolve, reject) => {
    const ac = new AbortController();
    const ms = spec.timeout_ms;
    let timer = timers.set(() => {
      ac.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
      timer = timers.set(
        () => reject(new DOMException(`timed out after ${ms + BACKSTOP_MS} ms`, 'TimeoutError')),
        BACKSTOP_MS,
      );
    }, ms);
    const fail = (e: unknown) => {
      timers.clear(timer);
      reject(e);
    };
    try {
      prober.run(spec, ac.signal).then((outcome) => {
        timers.clear(timer);
        resolve(outcome);
      }, fail);
    } catch (e) {
      fail(e);
    }
  });
