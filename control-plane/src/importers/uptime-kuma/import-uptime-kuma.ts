import { open, readFile } from 'node:fs/promises';
import { CONFIG_VERSION } from '../../config-as-code/config-file.js';
import type { ImportOutcome } from '../import-outcome.js';
import { createMapContext } from './context.js';
import { fromBackup, type KumaData } from './kuma-data.js';
import { mapMaintenance } from './map-maintenance.js';
import { mapMonitors } from './map-monitors.js';
import { mapNotifications } from './map-notifications.js';
import { mapStatusPages } from './map-status-pages.js';
import { readKumaDb, SQLITE_MAGIC } from './read-kuma-db.js';

/**
 * `npx lookout import uptime-kuma FILE`: Uptime Kuma's configuration (kuma-data.ts) as a Lookout
 * configuration file. Pure: `now` decides which one-off maintenance has ended.
 */
export const importUptimeKuma = (data: KumaData, now: Date): ImportOutcome => {
  const ctx = createMapContext();
  const channels = mapNotifications(data.notifications, ctx);
  const names = new Map(data.notifications.map((n) => [n.id, n.name]));
  const mapped = mapMonitors(data.monitors, channels.nameOf, ctx, names);
  const windows = mapMaintenance(
    data.maintenances,
    data.statusPages,
    mapped,
    ctx,
    now,
    data.serverTimezone ?? null,
  );
  const pages = mapStatusPages(
    data.statusPages,
    mapped,
    ctx,
    new Map(data.monitors.map((m) => [m.id, m.name])),
  );
  const file: Record<string, unknown> = { version: CONFIG_VERSION };
  const put = (key: string, items: unknown[]) => {
    if (items.length) file[key] = items;
  };
  put('channels', channels.channels);
  put('escalation_policies', mapped.policies);
  put('groups', mapped.groups);
  put('monitors', mapped.monitors);
  put('heartbeats', mapped.heartbeats);
  put('maintenance_windows', windows);
  put('status_pages', pages);
  const counts: Record<string, number> = {
    monitors: data.monitors.filter((m) => m.type !== 'group' && m.type !== 'push').length,
    'push monitors': data.monitors.filter((m) => m.type === 'push').length,
    groups: data.monitors.filter((m) => m.type === 'group').length,
    notifications: data.notifications.length,
    tags: new Set(data.monitors.flatMap((m) => m.tags.map((t) => t.name))).size,
  };
  if (data.from === 'database') {
    counts.maintenance = data.maintenances.length;
    counts['status pages'] = data.statusPages.length;
  }
  return { file: file as ImportOutcome['file'], unmapped: ctx.unmapped, secrets: ctx.secrets, counts };
};

/** The file: Kuma's SQLite database (by its first bytes) or its JSON backup. */
export const readUptimeKuma = async (file: string): Promise<KumaData> => {
  // The first bytes tell a database (read in place: it may be large with its heartbeats) from a backup.
  const head = Buffer.alloc(16);
  const fd = await open(file, 'r');
  try {
    await fd.read(head, 0, 16, 0);
  } finally {
    await fd.close();
  }
  if (head.toString('latin1') === SQLITE_MAGIC) return readKumaDb(file);
  const bytes = await readFile(file);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(
      `${file} is neither a kuma.db SQLite database nor a JSON backup: ${(e as Error).message}`,
    );
  }
  return fromBackup(json);
};
