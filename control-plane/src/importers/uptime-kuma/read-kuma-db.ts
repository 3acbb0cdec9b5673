import Database from 'better-sqlite3';
import {
  type KumaData,
  type KumaMaintenance,
  type KumaStatusPage,
  monitorOf,
  notificationOf,
} from './kuma-data.js';

type Row = Record<string, unknown>;

/** A SQLite database file starts with these 16 bytes. */
export const SQLITE_MAGIC = 'SQLite format 3\0';

const jsonList = <T>(v: unknown): T[] => {
  if (typeof v !== 'string') return [];
  try {
    const parsed = JSON.parse(v) as unknown;
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
};

/**
 * Reads Uptime Kuma's `kuma.db` (1.23: the tables of `db/kuma.db` and its `patch-*.sql`; 2.x: those
 * plus `db/knex_migrations/`), opened read-only: the monitors with their notifications and tags, the
 * notifications, the maintenance and the status pages with their groups. A column a version lacks
 * reads as absent (`SELECT *`).
 */
export const readKumaDb = (file: string): KumaData => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Row[]).map((r) =>
        String(r.name),
      ),
    );
    if (!tables.has('monitor')) throw new Error('not an Uptime Kuma database: it has no monitor table');
    const all = (table: string, order = 'id'): Row[] =>
      tables.has(table) ? (db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all() as Row[]) : [];
    const byKey = <T>(rows: Row[], key: string, value: (r: Row) => T) => {
      const map = new Map<number, T[]>();
      for (const r of rows) {
        const k = Number(r[key]);
        map.set(k, [...(map.get(k) ?? []), value(r)]);
      }
      return map;
    };
    const monitorNotifications = byKey(all('monitor_notification'), 'monitor_id', (r) =>
      Number(r.notification_id),
    );
    const tagNames = new Map(all('tag').map((t) => [Number(t.id), String(t.name)]));
    const monitorTags = byKey(all('monitor_tag'), 'monitor_id', (r) => ({
      name: tagNames.get(Number(r.tag_id)) ?? '',
      value: typeof r.value === 'string' ? r.value : '',
    }));
    const maintenanceMonitors = byKey(all('monitor_maintenance'), 'maintenance_id', (r) =>
      Number(r.monitor_id),
    );
    const maintenancePages = byKey(all('maintenance_status_page'), 'maintenance_id', (r) =>
      Number(r.status_page_id),
    );
    const maintenances: KumaMaintenance[] = all('maintenance').map((r) => ({
      id: Number(r.id),
      title: String(r.title ?? ''),
      description: String(r.description ?? ''),
      active: r.active === 1 || r.active === true,
      strategy: String(r.strategy ?? 'single'),
      startDate: typeof r.start_date === 'string' ? r.start_date : null,
      endDate: typeof r.end_date === 'string' ? r.end_date : null,
      startTime: typeof r.start_time === 'string' ? r.start_time : null,
      endTime: typeof r.end_time === 'string' ? r.end_time : null,
      weekdays: jsonList<number>(r.weekdays),
      daysOfMonth: jsonList<number | string>(r.days_of_month),
      intervalDay: typeof r.interval_day === 'number' ? r.interval_day : null,
      cron: typeof r.cron === 'string' ? r.cron : null,
      duration: typeof r.duration === 'number' ? r.duration : null,
      timezone: typeof r.timezone === 'string' ? r.timezone : null,
      monitorIds: maintenanceMonitors.get(Number(r.id)) ?? [],
      statusPageIds: maintenancePages.get(Number(r.id)) ?? [],
    }));
    const groupMonitors = byKey(all('monitor_group', 'group_id, weight, id'), 'group_id', (r) =>
      Number(r.monitor_id),
    );
    const pageGroups = byKey(all('group', 'status_page_id, weight, id'), 'status_page_id', (g) => ({
      name: String(g.name ?? ''),
      monitorIds: groupMonitors.get(Number(g.id)) ?? [],
    }));
    const domains = byKey(all('status_page_cname'), 'status_page_id', (r) => String(r.domain));
    const statusPages: KumaStatusPage[] = all('status_page').map((p) => ({
      id: Number(p.id),
      slug: String(p.slug ?? ''),
      title: String(p.title ?? ''),
      description: typeof p.description === 'string' ? p.description : null,
      published: p.published !== 0 && p.published !== false,
      domains: domains.get(Number(p.id)) ?? [],
      footerText: typeof p.footer_text === 'string' ? p.footer_text : null,
      customCss: typeof p.custom_css === 'string' ? p.custom_css : null,
      groups: pageGroups.get(Number(p.id)) ?? [],
    }));
    // Kuma keeps each setting JSON-encoded (its Settings.set).
    const zoneRow = tables.has('setting')
      ? (db.prepare('SELECT value FROM setting WHERE "key" = \'serverTimezone\'').get() as Row | undefined)
      : undefined;
    let serverTimezone: string | null = null;
    try {
      const v = typeof zoneRow?.value === 'string' ? JSON.parse(zoneRow.value) : null;
      serverTimezone = typeof v === 'string' ? v : null;
    } catch {
      serverTimezone = typeof zoneRow?.value === 'string' ? zoneRow.value : null;
    }
    return {
      version: tables.has('knex_migrations') ? '2.x' : '1.23',
      serverTimezone,
      from: 'database',
      monitors: all('monitor').map((m) =>
        monitorOf(m, monitorNotifications.get(Number(m.id)) ?? [], monitorTags.get(Number(m.id)) ?? []),
      ),
      notifications: all('notification').map(notificationOf),
      maintenances,
      statusPages,
    };
  } finally {
    db.close();
  }
};
