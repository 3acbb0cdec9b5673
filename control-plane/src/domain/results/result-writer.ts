import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CheckResultRecord, MonitorLocationState } from '../types.js';
import type { ResultStore } from './result-store.js';

export type RecordResults = ResultStore['recordResults'];

interface Pending {
  results: CheckResultRecord[];
  step: Parameters<RecordResults>[1];
  resolve: (out: Awaited<ReturnType<RecordResults>>) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for results: calls that arrive while a write is running (or within the same turn of
 * the event loop) are merged into one write,
 * so N concurrent ReportResults calls cost one transaction (one fsync) instead of N. Each caller gets
 * back exactly what a call of its own would have: its stored ids and the states of its monitors.
 * At most `maxResults` results go into one write; the rest wait for the next.
 */
export const createResultWriter = (record: RecordResults, maxResults = 10_000) => {
  const queue: Pending[] = [];
  let running = false;
  /** Results accepted by callers and not yet written (queued or in the write under way). */
  let backlog = 0;

  const drain = async () => {
    running = true;
    while (queue.length > 0) {
      // The store may write synchronously (SQLite): let requests already received queue up first.
      await nextTurn();
      const group: Pending[] = [];
      let size = 0;
      while (queue.length > 0 && (group.length === 0 || size + queue[0]!.results.length <= maxResults)) {
        const p = queue.shift()!;
        group.push(p);
        size += p.results.length;
      }
      try {
        if (group.length === 1) {
          // A call of its own: its answer as it is, with no routing of steps or splitting back.
          const p = group[0]!;
          p.resolve(await record(p.results, p.step));
          continue;
        }
        const owner = new Map<CheckResultRecord, Pending>();
        for (const p of group) for (const r of p.results) owner.set(r, p);
        const out = await record(
          group.flatMap((p) => p.results),
          (prev, r) => owner.get(r)!.step(prev, r),
        );
        const stored = new Set(out.stored);
        const byMonitor = new Map<string, MonitorLocationState[]>();
        for (const s of out.states) {
          const list = byMonitor.get(s.monitor_id);
          if (list) list.push(s);
          else byMonitor.set(s.monitor_id, [s]);
        }
        for (const p of group) {
          const monitors = new Set(p.results.map((r) => r.monitor_id));
          p.resolve({
            stored: p.results.filter((r) => stored.has(r.id)).map((r) => r.id),
            states: [...monitors].flatMap((id) => byMonitor.get(id) ?? []),
          });
        }
      } catch (err) {
        if (group.length === 1) group[0]!.reject(err);
        // One caller's bad batch must not fail the others: each goes again on its own.
        else for (const p of group) record(p.results, p.step).then(p.resolve, p.reject);
      }
    }
    running = false;
  };

  const write: RecordResults = (results, step) =>
    new Promise((resolve, reject) => {
      backlog += results.length;
      const done = () => {
        backlog -= results.length;
      };
      queue.push({
        results,
        step,
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      if (!running) void drain();
    });
  return { write, backlog: () => backlog };
};

/**
 * Back-pressure for agents: with more than `threshold` results waiting to be written, ask each
 * reporting agent to pause, longer as the backlog grows (at most 5 s). Results wait in the agents'
 * buffers meanwhile, which are bounded and replayed, so nothing is lost.
 */
export const slowDownMs = (backlog: number, threshold = 20_000) =>
  backlog <= threshold ? 0 : Math.min(5000, Math.round((1000 * backlog) / threshold));
