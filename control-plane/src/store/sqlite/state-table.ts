import { createMonitorSlots, type MonitorSlots, widened } from '../../domain/monitors/monitor-slots.js';
import type { MonitorLocationState } from '../../domain/types.js';

const STATUSES: MonitorLocationState['status'][] = ['unknown', 'up', 'down'];
const NONE = -1;

/**
 * The location states of the state book (state-book.ts), held as columns of typed arrays, one slot
 * per (monitor, location), instead of one object (and two Dates) each: ~50 bytes a state instead of
 * ~490 (measured: 100,000 monitors × 2 locations took 98 MB as objects). A monitor's slots are
 * chained (`next`) from `head`, indexed by its number in `monitors` (monitor-slots.ts, shared with the
 * other tables of monitors); locations are numbered once. States go in and come out as records; a
 * record read is a new object, so callers may keep or change it.
 */
export const createStateTable = (monitors: MonitorSlots = createMonitorSlots()) => {
  /** By monitor slot: its newest state slot (NONE: it has none). */
  let head = new Int32Array(0);
  /** Locations, numbered as monitors are (a handful). */
  const locationSlots = createMonitorSlots();
  let size = 0;
  let capacity = 0;
  /** By state slot: its monitor's slot. */
  let monitorOf = new Int32Array(0);
  let next = new Int32Array(0);
  let location = new Uint16Array(0);
  let status = new Uint8Array(0);
  let failures = new Uint32Array(0);
  let successes = new Uint32Array(0);
  let slow = new Uint32Array(0);
  let version = new Uint32Array(0);
  let lastResultAt = new Float64Array(0);
  let lastScheduledAt = new Float64Array(0);

  const grow = () => {
    capacity = Math.max(1024, capacity * 2);
    next = widened(next, capacity);
    location = widened(location, capacity);
    status = widened(status, capacity);
    failures = widened(failures, capacity);
    successes = widened(successes, capacity);
    slow = widened(slow, capacity);
    version = widened(version, capacity);
    lastResultAt = widened(lastResultAt, capacity);
    lastScheduledAt = widened(lastScheduledAt, capacity);
    monitorOf = widened(monitorOf, capacity);
  };
  /** The newest state slot of the monitor numbered `m` (monitor-slots.ts); NONE when it has none. */
  const headAt = (m: number) => (m < 0 || m >= head.length ? NONE : head[m]!);
  const headOf = (monitorId: string) => headAt(monitors.find(monitorId));
  const findAt = (m: number, loc: number) => {
    for (let i = headAt(m); i !== NONE; i = next[i]!) if (location[i] === loc) return i;
    return NONE;
  };
  /** The state of the monitor numbered `m` (-1: none) at `loc`; null when it has none there. */
  const getAt = (m: number, loc: string): MonitorLocationState | null => {
    const l = locationSlots.find(loc);
    if (l < 0) return null;
    const i = findAt(m, l);
    return i === NONE ? null : record(i);
  };
  const locationsFrom = (first: number): MonitorLocationState[] => {
    const out: MonitorLocationState[] = [];
    for (let i = first; i !== NONE; i = next[i]!) out.push(record(i));
    return out;
  };
  const record = (i: number): MonitorLocationState => ({
    monitor_id: monitors.id(monitorOf[i]!),
    location: locationSlots.id(location[i]!),
    status: STATUSES[status[i]!]!,
    consecutive_failures: failures[i]!,
    consecutive_successes: successes[i]!,
    consecutive_slow: slow[i]!,
    last_result_at: Number.isNaN(lastResultAt[i]) ? null : new Date(lastResultAt[i]!),
    last_scheduled_at: Number.isNaN(lastScheduledAt[i]) ? null : new Date(lastScheduledAt[i]!),
    version: version[i]!,
  });

  /** Stores the state of the monitor numbered `m` (it must be `s.monitor_id`'s number). */
  const putAt = (m: number, s: MonitorLocationState) => {
    const loc = locationSlots.slot(s.location);
    let i = findAt(m, loc);
    if (i === NONE) {
      if (size === capacity) grow();
      i = size++;
      if (m >= head.length) head = widened(head, m + 1, NONE);
      next[i] = head[m]!;
      head[m] = i;
      monitorOf[i] = m;
      location[i] = loc;
    }
    status[i] = STATUSES.indexOf(s.status);
    failures[i] = s.consecutive_failures;
    successes[i] = s.consecutive_successes;
    slow[i] = s.consecutive_slow;
    version[i] = s.version;
    lastResultAt[i] = s.last_result_at?.getTime() ?? Number.NaN;
    lastScheduledAt[i] = s.last_scheduled_at?.getTime() ?? Number.NaN;
  };

  return {
    /** Stores the state; returns its monitor's number (monitor-slots.ts), which it looked up anyway. */
    put(s: MonitorLocationState): number {
      const m = monitors.slot(s.monitor_id);
      putAt(m, s);
      return m;
    },
    /**
     * The forms by number (monitor-slots.ts) of `put`, `get` and `locations`: for a caller that looked
     * the monitor's number up once for several calls (results.ts, a lookup in a map of every monitor
     * each; they were 7 % of the control plane's time at 100,000 monitors).
     */
    putAt,
    getAt,
    locationsAt: (m: number) => locationsFrom(headAt(m)),
    get: (monitorId: string, loc: string) => getAt(monitors.find(monitorId), loc),
    /** The monitor's states, newest location first (the order they were added in reverse). */
    locations: (monitorId: string) => locationsFrom(headOf(monitorId)),
    version(monitorId: string, loc: string): number {
      const id = locationSlots.find(loc);
      const i = id < 0 ? NONE : findAt(monitors.find(monitorId), id);
      return i === NONE ? 0 : version[i]!;
    },
    /** The newest result time of the monitor at any location; null when it has none. */
    lastResultAt(monitorId: string): Date | null {
      let last = Number.NEGATIVE_INFINITY;
      for (let i = headOf(monitorId); i !== NONE; i = next[i]!) {
        const t = lastResultAt[i]!;
        if (t > last) last = t; // NaN (never) is never greater
      }
      return last === Number.NEGATIVE_INFINITY ? null : new Date(last);
    },
    get size() {
      return size;
    },
  };
};
