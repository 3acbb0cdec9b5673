import type { Deadline, ProbeOutcome, Prober, ProbeSpec } from './probe-port.js';
import type { Timers } from './scheduler.js';

/** How long a prober that ignores its deadline may still hold its slot. */
export const BACKSTOP_MS = 1000;

/** A deadline that ends when told (`abort`): one per check, a few words. */
export class CheckDeadline implements Deadline {
  aborted = false;
  reason: unknown = undefined;
  #listener: ((reason: unknown) => void) | null = null;
  #controller: AbortController | null = null;

  onAbort(fn: ((reason: unknown) => void) | null) {
    if (fn && this.aborted) fn(this.reason);
    else this.#listener = fn;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Ends the deadline (once): the listener, then the signal if one was made. */
  abort(reason: unknown) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const fn = this.#listener;
    this.#listener = null;
    fn?.(reason);
    this.#controller?.abort(reason);
  }
}

/**
 * One run of a prober under the check's one deadline: a single timer that, at `spec.timeout_ms`,
 * ends the prober's deadline with the `TimeoutError` probers report as a timeout. Probers arm no
 * timers of their own. The hard backstop (a prober that ignores its deadline still frees its slot
 * `BACKSTOP_MS` later, failing with a `TimeoutError` of timeout + 1 s) costs a second timer only
 * once the deadline has passed. Rejects only from the backstop or a throwing prober.
 */
export const probeWithDeadline = (prober: Prober, spec: ProbeSpec, timers: Timers): Promise<ProbeOutcome> =>
  new Promise((resolve, reject) => {
    const deadline = new CheckDeadline();
    const ms = spec.timeout_ms;
    let timer = timers.set(() => {
      deadline.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
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
      prober.run(spec, deadline).then((outcome) => {
        timers.clear(timer);
        resolve(outcome);
      }, fail);
    } catch (e) {
      fail(e);
    }
  });
