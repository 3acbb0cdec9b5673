import type { Client } from '@connectrpc/connect';
import type { AgentService, CheckResult } from '@lookout/proto';
import type { Logger } from '@lookout/shared';
import { createResultBuffer } from './result-buffer.js';
import type { RpcErrorKind } from './rpc-errors.js';
import type { Timers } from './scheduler.js';

export const REPORT_BATCH = 200;
/** The longest pause a control plane's slow-down request can impose between two batches. */
export const MAX_SLOW_DOWN_MS = 10_000;

export interface ReporterDeps {
  client: Client<typeof AgentService>;
  instanceId: string;
  timers: Timers;
  log: Logger;
  callTimeoutMs: number;
  buffer: { maxItems: number; maxAgeMs: number };
  /** The open session, or null while not registered (then nothing is sent). */
  session(): { id: string } | null;
  /** A failed call, for the one place that decides what it means (the stream session). */
  failed(e: unknown): RpcErrorKind;
  /** True once the agent drains: a slow-down request no longer pauses the final flush. */
  stopping(): boolean;
}

/**
 * Keeps results until the control plane acknowledges them and sends them in batches, oldest first:
 * on a timer, when a batch is full, after each Register and on shutdown. Calls never overlap. A
 * reply's slow-down request pauses the next batch (results keep buffering meanwhile).
 */
export const createReporter = (deps: ReporterDeps) => {
  const { client, timers, log } = deps;
  const buffer = createResultBuffer<CheckResult>(deps.buffer);
  let reporting: Promise<void> = Promise.resolve();
  /** How often the control plane asked this agent to slow down. */
  let slowDowns = 0;
  /** Ends a slow-down pause early (shutdown flushes at once). */
  let endPause = () => {};

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = timers.set(() => resolve(), Math.min(ms, MAX_SLOW_DOWN_MS));
      endPause = () => {
        timers.clear(t);
        resolve();
      };
    }).finally(() => {
      endPause = () => {};
    });

  /** Sends buffered results oldest first until the buffer is empty or a call fails. */
  const report = (): Promise<void> => {
    reporting = reporting.then(async () => {
      for (let session = deps.session(); session && buffer.size > 0; session = deps.session()) {
        const batch = buffer.peek(REPORT_BATCH, timers.now());
        if (batch.length === 0) return;
        try {
          const reply = await client.reportResults(
            { instanceId: deps.instanceId, sessionId: session.id, results: batch.map((b) => b.value) },
            { timeoutMs: deps.callTimeoutMs },
          );
          buffer.ack(batch.map((b) => b.id));
          // Back-pressure: the control plane is behind; results wait in the buffer meanwhile.
          if (reply.slowDownMs > 0 && !deps.stopping()) {
            slowDowns++;
            await pause(reply.slowDownMs);
          }
        } catch (e) {
          // A rejected token is logged (once) where it is decided; other failures are retried next tick.
          if (deps.failed(e) === 'transient') {
            log.warn(
              { err: (e as Error).message, buffered: buffer.size },
              'reporting failed; results stay buffered',
            );
          }
          return;
        }
      }
    });
    return reporting;
  };

  return {
    /** A finished run's result; a full batch is sent at once. */
    push(id: string, startedAt: number, result: CheckResult) {
      buffer.push(id, startedAt, result, timers.now());
      if (buffer.size >= REPORT_BATCH) void report();
    },
    report,
    endPause: () => endPause(),
    get buffered() {
      return buffer.size;
    },
    get dropped() {
      return buffer.dropped;
    },
    get slowDowns() {
      return slowDowns;
    },
  };
};

export type Reporter = ReturnType<typeof createReporter>;
