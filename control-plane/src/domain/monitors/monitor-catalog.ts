import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CatalogMonitor, Monitor, MonitorChange } from '../types.js';
import { runningLocations } from './monitor-runs.js';
import { createMonitorSlots, type MonitorSlots } from './monitor-slots.js';
import type { MonitorStore } from './monitor-store.js';

/** How many monitors or feed entries one store read brings. */
const PAGE = 1000;

/**
 * This replica's copy of every monitor, kept current from the store's monitor feed. Agent streams
 * take their region's monitors from here and result ingestion its monitors, so neither reads the
 * monitor table per request: a replica reads each change once, whatever the number of streams.
 * Run requests in the feed (confirmation runs asked by any replica) are handed to `onRun` listeners.
 *
 * Staleness: a change made on any replica is seen here after at most one poll interval.
 */
export interface MonitorCatalog {
  /** The feed position applied so far; grows whenever monitors changed. */
  readonly revision: number;
  /** The process's numbers for monitor ids (monitor-slots.ts), by which the agent streams keep what their agents run. */
  readonly slots: MonitorSlots;
  /** Resolves once the first full load is done. */
  ready(): Promise<void>;
  get(id: string): CatalogMonitor | undefined;
  /** The monitors that run in `region` now (not paused), by id. */
  region(region: string): RegionView;
  /** Like `get` for many ids; ids not known yet (created a moment ago) are read from the store. */
  resolve(ids: Iterable<string>): Promise<Map<string, CatalogMonitor>>;
  /** Called with each run request that appears in the feed after the catalog started. */
  onRun(fn: (run: MonitorChange) => void): () => void;
  /**
   * Called after each refresh that changed monitors, with the ids that changed (added, updated or
   * deleted), or null when everything was loaded again (after a gap in the feed).
   */
  onChange(fn: (ids: ReadonlySet<string> | null) => void): () => void;
  /** Reads the feed once (coalesced: concurrent calls share one read). */
  refresh(): Promise<void>;
  /** Polls every `pollMs` until stopped; a failed read is reported to `onError` and tried again. */
  start(pollMs: number, onError: (err: unknown) => void): void;
  stop(): void;
}

/**
 * A region's monitors, read through the catalog's one map: a map per region would be another table of
 * 3.5 MB per region at 100,000 monitors. Iterating costs a pass over every monitor, which is what the
 * callers do (a stream's full pass, the region health job every 15 s); `get` is a lookup.
 */
export interface RegionView {
  get(id: string): CatalogMonitor | undefined;
  keys(): IterableIterator<string>;
  values(): IterableIterator<CatalogMonitor>;
}

/**
 * One copy of the values that many monitors share: the same location lists, empty lists and header
 * maps, workspace and escalation policy ids, types and methods. Each record read from the store
 * brings its own copies; at 20,000 monitors those were a fifth of the catalog's heap. Shared lists
 * and maps are frozen, so no caller can change another monitor's value through its own.
 */
const createInterner = (slots: MonitorSlots) => {
  const strings = new Map<string, string>();
  const values = new Map<string, unknown>();
  const str = <T extends string | null>(s: T): T => {
    if (s === null) return s;
    const known = strings.get(s);
    if (known !== undefined) return known as T;
    strings.set(s, s);
    return s;
  };
  const frozen = <T extends object>(v: T): T => {
    const key = JSON.stringify(v);
    const known = values.get(key);
    if (known !== undefined) return known as T;
    values.set(key, Object.freeze(v));
    return v;
  };
  // Every field named, not a spread of the record: a literal keeps all of them inside the object
  // (~250 bytes), where a spread left four there and the rest in a second array (~270 bytes and one more
  // object a monitor for the collector). Not kept: created_at and updated_at (see CatalogMonitor).
  return (m: Monitor): CatalogMonitor => ({
    // The id string the process's numbering keeps (the store's tables may have met it first).
    id: slots.id(slots.slot(m.id)),
    workspace_id: str(m.workspace_id),
    display_name: m.display_name,
    monitor_type: str(m.monitor_type),
    url: m.url,
    http_method: str(m.http_method),
    check_interval_seconds: m.check_interval_seconds,
    timeout_seconds: m.timeout_seconds,
    expected_status_code: m.expected_status_code,
    required_keyword: m.required_keyword,
    auth: m.auth,
    port: m.port,
    request_headers:
      Object.keys(m.request_headers).length === 0 ? frozen(m.request_headers) : m.request_headers,
    request_body: m.request_body,
    follow_redirects: m.follow_redirects,
    ssl_cert_monitoring: m.ssl_cert_monitoring,
    ssl_cert_expiry_alert_days: m.ssl_cert_expiry_alert_days,
    domain_expiry_alert_days: m.domain_expiry_alert_days,
    response_time_threshold_ms: m.response_time_threshold_ms,
    failure_threshold: m.failure_threshold,
    retry_interval_seconds: m.retry_interval_seconds,
    escalation_policy_id: str(m.escalation_policy_id),
    check_locations: frozen(m.check_locations.map(str)),
    dns_record_type: str(m.dns_record_type),
    dns_expected_values:
      m.dns_expected_values.length === 0 ? frozen(m.dns_expected_values) : m.dns_expected_values,
    dns_resolver: m.dns_resolver,
    depends_on: frozen((m.depends_on ?? []).map(str)),
    paused: m.paused,
    group_id: str(m.group_id),
    // Monitors share few tag lists (a team tags by a handful of keys): one frozen copy of each.
    tags: frozen(m.tags),
    severity: str(m.severity),
    // Most monitors' settings are the same few objects (no assertions, the defaults): one frozen copy each.
    settings: frozen(m.settings),
    version: m.version,
  });
};

/**
 * The records by monitor number (monitor-slots.ts): an array beside the process's one map of monitor
 * ids, not a map of its own (3.5 MB at 100,000 monitors). A number is never given back, so a deleted
 * monitor leaves an empty entry; the numbers are as many as the monitors the process has met.
 */
const createRecords = (slots: MonitorSlots) => {
  let bySlot: (CatalogMonitor | undefined)[] = [];
  return {
    get(id: string): CatalogMonitor | undefined {
      const s = slots.find(id);
      return s < 0 ? undefined : bySlot[s];
    },
    set(m: CatalogMonitor) {
      const s = slots.slot(m.id);
      // Grown an entry at a time, never past its end: an index far beyond it would make V8 keep the
      // array as a dictionary.
      while (bySlot.length < s) bySlot.push(undefined);
      bySlot[s] = m;
    },
    delete(id: string) {
      const s = slots.find(id);
      if (s >= 0 && s < bySlot.length) bySlot[s] = undefined;
    },
    clear() {
      bySlot = [];
    },
    *values(): IterableIterator<CatalogMonitor> {
      for (const m of bySlot) if (m !== undefined) yield m;
    },
  };
};

/** `slots`: the process's numbers for monitor ids (main.ts shares the store's); a catalog of its own otherwise. */
export const createMonitorCatalog = (
  store: MonitorStore,
  slots: MonitorSlots = createMonitorSlots(),
): MonitorCatalog => {
  const compact = createInterner(slots);
  const byId = createRecords(slots);
  const runListeners = new Set<(run: MonitorChange) => void>();
  const changeListeners = new Set<(ids: ReadonlySet<string> | null) => void>();
  let revision = 0;
  let loaded: Promise<void> | null = null;
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const runsIn = (m: CatalogMonitor, region: string) => !m.paused && runningLocations(m).includes(region);
  /** A monitor added, changed or gone: its entry is replaced in place. */
  const put = (id: string, m: Monitor | undefined) => {
    if (!m) {
      byId.delete(id);
      return;
    }
    byId.set(compact(m));
  };

  /** Everything, a page at a time (yielding between pages so the event loop stays free). */
  const loadAll = async () => {
    const from = await store.latestMonitorChange();
    byId.clear();
    let after: string | null = null;
    for (;;) {
      const page = await store.scanMonitors(after, PAGE);
      for (const m of page) put(m.id, m);
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.id;
      await nextTurn();
    }
    // Entries after `from` are applied by the next refresh (re-reading a monitor is harmless).
    revision = from;
  };

  const readFeed = async () => {
    if (!loaded) loaded = loadAll();
    await loaded;
    /** The ids changed by this refresh; null once everything was loaded again. */
    let changed: Set<string> | null = new Set<string>();
    for (;;) {
      const entries = await store.listMonitorChanges(revision, PAGE);
      if (entries.length === 0) break;
      if (entries[0]!.seq !== revision + 1) {
        // Entries we never saw were pruned (this replica stalled for longer than the feed keeps them).
        await loadAll();
        changed = null;
        continue;
      }
      const ids = [...new Set(entries.filter((e) => e.kind === 'changed').map((e) => e.monitor_id))];
      if (ids.length > 0) {
        const found = new Map((await store.getMonitorsByIds(ids)).map((m) => [m.id, m]));
        for (const id of ids) {
          put(id, found.get(id));
          changed?.add(id);
        }
      }
      revision = entries[entries.length - 1]!.seq;
      for (const e of entries) if (e.kind === 'run') for (const fn of runListeners) fn(e);
      if (entries.length < PAGE) break;
      // The store's reads are synchronous on SQLite: a bulk change of 10,000 monitors is ten pages,
      // each given its own turn of the event loop (docs/benchmarks.md, "Bulk actions on monitors").
      await nextTurn();
    }
    if (changed === null || changed.size > 0) for (const fn of changeListeners) fn(changed);
  };

  const catalog: MonitorCatalog = {
    get revision() {
      return revision;
    },
    slots,
    async ready() {
      if (!loaded) loaded = loadAll();
      await loaded;
    },
    get: (id) => byId.get(id),
    region: (region) => ({
      get(id) {
        const m = byId.get(id);
        return m && runsIn(m, region) ? m : undefined;
      },
      *keys() {
        for (const m of byId.values()) if (runsIn(m, region)) yield m.id;
      },
      *values() {
        for (const m of byId.values()) if (runsIn(m, region)) yield m;
      },
    }),
    async resolve(ids) {
      const out = new Map<string, CatalogMonitor>();
      // `ids` may repeat one (a batch's results, one for each): each is read from the store once.
      const missing = new Set<string>();
      for (const id of ids) {
        const m = byId.get(id);
        if (m) out.set(id, m);
        else missing.add(id);
      }
      if (missing.size > 0) for (const m of await store.getMonitorsByIds([...missing])) out.set(m.id, m);
      return out;
    },
    onRun(fn) {
      runListeners.add(fn);
      return () => runListeners.delete(fn);
    },
    onChange(fn) {
      changeListeners.add(fn);
      return () => changeListeners.delete(fn);
    },
    refresh() {
      inFlight ??= readFeed().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    start(pollMs, onError) {
      if (timer) return;
      timer = setInterval(() => void catalog.refresh().catch(onError), pollMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return catalog;
};
