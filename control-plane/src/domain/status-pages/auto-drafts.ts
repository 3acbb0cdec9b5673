import type { AlertKey, AlertStore } from '../alerts/alert-store.js';
import { coverNow } from '../maintenance/cover.js';
import type { MaintenanceWindowStore } from '../maintenance/maintenance-store.js';
import type { MonitorStatusStore } from '../monitors/monitor-status.js';
import { newIncident } from './incidents.js';
import type { StatusPageStore } from './status-page-store.js';

/**
 * Pages with `auto_draft_incidents` on: for every component whose monitor is down, a draft incident
 * (never public until a person publishes it) keyed by the outage, i.e. the monitor's open `down`
 * alert: `<component id>:<alert id>`. The store holds one incident per key, so every replica can run
 * this at once and an outage opens one draft, and none again after the team discarded it; the next
 * outage (a new alert) opens a new one. Reads: the pages, then per page one status read and one alert
 * read. Returns how many drafts were opened.
 */
export const openAutoDrafts = async (
  store: Pick<StatusPageStore, 'listAutoDraftPages' | 'insertIncident'> &
    Pick<MonitorStatusStore, 'getMonitorStatuses'> &
    Pick<AlertStore, 'findOpenAlerts'> &
    Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>,
  now: Date,
): Promise<number> => {
  let opened = 0;
  for (const page of await store.listAutoDraftPages()) {
    const linked = page.components.filter((c) => c.monitor_id !== null);
    if (linked.length === 0) continue;
    const statuses = await store.getMonitorStatuses(
      page.workspace_id,
      [...new Set(linked.map((c) => c.monitor_id!))],
      now,
      await coverNow(store, page.workspace_id, now),
    );
    const down = linked.filter((c) => statuses.get(c.monitor_id!)?.status === 'down');
    if (down.length === 0) continue;
    const keys: AlertKey[] = down.map((c) => ({
      workspace_id: page.workspace_id,
      source_type: 'monitor',
      source_id: c.monitor_id!,
      cause: 'down',
      dedup_key: '',
    }));
    const alerts = new Map((await store.findOpenAlerts(keys)).map((a) => [a.source_id, a]));
    for (const c of down) {
      const alert = alerts.get(c.monitor_id!);
      if (!alert) continue;
      const draft = newIncident(
        page,
        {
          title: `${c.name} is down`,
          status: 'investigating',
          message: `${c.name} stopped responding to our checks. We are looking into it.`,
          components: { [c.id]: 'major_outage' },
          published: false,
        },
        now,
        null,
        `${c.id}:${alert.id}`,
      );
      if (await store.insertIncident(draft)) opened++;
    }
  }
  return opened;
};
