import { createMonitorSlots, type MonitorSlots, widened } from '../../domain/monitors/monitor-slots.js';
import type { MonitorLocationState } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { monitorStates } from './tables.js';

/** Status codes in `status`: 0 means the monitor has no monitor-level row. */
const STATUSES = [null, 'up', 'down', 'unknown'] as const;
/** In `status`: nothing known of the monitor's row (not read since the copy was last dropped). */
const UNREAD = 255;
type Status = Exclude<(typeof STATUSES)[number], null>;
/** Not cached: a row with counters or a scheduled time (no flip writes one) is read from the table. */
const cacheable = (s: MonitorLocationState) =>
  s.consecutive_failures === 0 &&
  s.consecutive_successes === 0 &&
  s.consecutive_slow === 0 &&
  s.last_scheduled_at === null &&
  STATUSES.includes(s.status);

/**
 * The monitor-level ('*') rows of `monitor_states`, kept by this process so that storing a batch of
 * results does not read one of them per monitor (a random page each: ~5 µs a result at 100,000
 * monitors, the largest read of ingestion). They change only when a monitor flips, an alert is
 * resolved or a monitor goes, so a copy stays right for long; what says it still is right is
 * `monitor_level_seq.seq`, which triggers on `monitor_states` bump in the same transaction as any
 * insert, update or delete of a '*' row, whichever process or statement made it (migration 26).
 *
 * Every read goes through `current`, inside the transaction that uses the rows: when the sequence is
 * not the one this copy was taken at, the copy is dropped and rows are read again as they are needed.
 * A process that writes '*' rows itself (`wrote`) keeps its copy when the sequence moved by exactly
 * its own writes, and drops it otherwise. Held compactly, in typed arrays indexed by the monitor's
 * number in `monitors` (monitor-slots.ts, shared with the state book): 13 bytes a monitor.
 */
export const monitorLevels = ({ st, many }: SqliteContext, monitors: MonitorSlots = createMonitorSlots()) => {
  /** The sequence this copy is good for; -1: nothing read yet. */
  let seq = -1;
  /** By monitor slot: a code of STATUSES, or UNREAD. */
  let status = new Uint8Array(0);
  let version = new Uint32Array(0);
  /** Epoch ms of the row's last_result_at; NaN for null. */
  let lastAt = new Float64Array(0);
  const drop = () => status.fill(UNREAD);

  const readSeq = () => (st('SELECT seq FROM monitor_level_seq').get() as { seq: number }).seq;
  const put = (monitorId: string, row: MonitorLocationState | null) => {
    const i = monitors.slot(monitorId);
    if (i >= status.length) {
      status = widened(status, i + 1, UNREAD);
      version = widened(version, i + 1);
      lastAt = widened(lastAt, i + 1);
    }
    if (row && !cacheable(row)) {
      status[i] = UNREAD;
      return;
    }
    status[i] = row ? STATUSES.indexOf(row.status) : 0;
    version[i] = row?.version ?? 0;
    lastAt[i] = row?.last_result_at?.getTime() ?? Number.NaN;
  };
  const rowOf = (monitorId: string, i: number): MonitorLocationState | null => {
    const s = status[i]!;
    if (s === 0 || s === UNREAD) return null;
    const at = lastAt[i]!;
    return {
      monitor_id: monitorId,
      location: '*',
      status: STATUSES[s] as Status,
      consecutive_failures: 0,
      consecutive_successes: 0,
      consecutive_slow: 0,
      last_result_at: Number.isNaN(at) ? null : new Date(at),
      last_scheduled_at: null,
      version: version[i]!,
    };
  };

  const currentAt = (slots: readonly number[]): MonitorLocationState[] => {
    const now = readSeq();
    if (now !== seq) {
      drop();
      seq = now;
    }
    const out: MonitorLocationState[] = [];
    const missing: string[] = [];
    for (const i of slots) {
      const id = monitors.id(i);
      if (i >= status.length || status[i] === UNREAD) missing.push(id);
      else {
        const row = rowOf(id, i);
        if (row) out.push(row);
      }
    }
    if (missing.length === 0) return out;
    const found = many<MonitorLocationState>(
      monitorStates,
      "SELECT * FROM monitor_states WHERE location = '*' AND monitor_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(missing),
    );
    const byId = new Map(found.map((r) => [r.monitor_id, r]));
    for (const id of missing) {
      const row = byId.get(id) ?? null;
      put(id, row);
      if (row) out.push(row);
    }
    return out;
  };

  return {
    /**
     * The '*' rows of these monitors, by their numbers (monitor-slots.ts; none for a monitor without
     * one), as the table has them now. Call inside the transaction that acts on them.
     */
    currentAt,
    /**
     * After this process wrote '*' rows (inside the same transaction): each row it inserted or updated,
     * as it is now (each moved the sequence once).
     */
    wrote(rows: readonly MonitorLocationState[]) {
      const now = readSeq();
      if (seq !== -1 && now === seq + rows.length) {
        for (const r of rows) put(r.monitor_id, r);
      } else drop();
      seq = now;
    },
  };
};

export type MonitorLevels = ReturnType<typeof monitorLevels>;
