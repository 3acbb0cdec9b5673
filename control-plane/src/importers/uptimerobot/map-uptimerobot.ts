import type { Item } from '../../config-as-code/kind.js';
import { admit, nameBook, policyBook } from '../import-names.js';
import type { ImportOutcome, SecretReference, Unmapped } from '../import-outcome.js';
import { mapContact } from './map-contacts.js';
import { mapMonitor, monitorLabel } from './map-monitor.js';
import { type Covered, mapWindows } from './map-windows.js';
import type { UrInput } from './uptimerobot-shapes.js';

/**
 * UptimeRobot (API v2 `getMonitors` + `getAlertContacts` + `getMWindows`, or the dashboard's CSV
 * export of monitors) → Lookout monitors, heartbeats, channels, the escalation policies that join
 * them, and maintenance windows. `now` decides which one-off windows have ended.
 */
export const mapUptimeRobot = (input: UrInput, now: Date): ImportOutcome => {
  const unmapped: Unmapped[] = [];
  const secrets: SecretReference[] = [];
  const channelNames = nameBook();
  const channels: Item[] = [];
  const channelById = new Map<string, string>();
  for (const c of input.contacts ?? []) {
    const mapped = mapContact(c, channelNames, secrets);
    if ('reason' in mapped) unmapped.push(mapped);
    else if (admit('channels', mapped.item, `alert contact "${c.friendly_name}" (id ${c.id})`, unmapped)) {
      if (mapped.note) unmapped.push({ ...mapped.note, item: { kind: 'channels', index: channels.length } });
      channels.push(mapped.item);
      channelById.set(String(c.id), mapped.item.name as string);
    }
  }
  const { policyFor, policies } = policyBook('UptimeRobot');
  const monitorNames = nameBook();
  const heartbeatNames = nameBook();
  const monitors: Item[] = [];
  const heartbeats: Item[] = [];
  const coveredBy = new Map<string, Covered[]>();
  let http = false;
  for (const m of input.monitors) {
    const names = m.type === 5 ? heartbeatNames : monitorNames;
    const name = names(m.friendly_name, `Monitor ${m.id}`);
    // What this monitor loses, marked with its item's place in the file.
    const lost: Unmapped[] = [];
    const r = mapMonitor(m, name, lost, secrets);
    const admitted = r.kind === 'none' ? null : admit(r.kind, r.item, monitorLabel(m), lost);
    if (r.kind === 'none' || !admitted) {
      unmapped.push(...lost);
      continue;
    }
    r.item = admitted;
    const list = r.kind === 'monitors' ? monitors : heartbeats;
    const item = { kind: r.kind, index: list.length };
    list.push(r.item);
    if (r.item.monitor_type === 'http' || r.item.monitor_type === 'api') http = true;
    if (r.kind === 'heartbeats')
      lost.push({
        source: monitorLabel(m),
        setting: 'url',
        reason: 'a heartbeat in Lookout has its own ping URL: point the job at it (apply prints it)',
      });
    const contacts = m.alert_contacts ?? [];
    const mapped = contacts.map((c) => channelById.get(String(c.id))).filter((n): n is string => !!n);
    const policy = policyFor(mapped);
    if (policy) r.item.escalation_policy = policy;
    if (contacts.some((c) => Number(c.threshold ?? 0) > 0 || Number(c.recurrence ?? 0) > 0))
      lost.push({
        source: monitorLabel(m),
        setting: 'alert_contacts threshold, recurrence',
        reason:
          'Lookout notifies a policy’s channels at once; delays and repeats are the policy’s steps and repeat',
      });
    unmapped.push(...lost.map((u) => ({ ...u, item })));
    for (const w of m.mwindows ?? []) {
      const list = coveredBy.get(String(w.id)) ?? [];
      list.push({ kind: r.kind, name });
      coveredBy.set(String(w.id), list);
    }
  }
  const windowNames = nameBook();
  const win = mapWindows(input.mwindows ?? [], coveredBy, windowNames, now, unmapped);
  const byName = new Map(
    [...monitors, ...heartbeats].map((i) => [`${i.monitor_type ? 'm' : 'h'}:${i.display_name}`, i]),
  );
  for (const [covered, tags] of win.tags) {
    const item = byName.get(`${covered.kind === 'monitors' ? 'm' : 'h'}:${covered.name}`);
    if (item) item.tags = [...((item.tags as string[] | undefined) ?? []), ...tags].slice(0, 20);
  }
  if (http)
    unmapped.push({
      source: 'HTTP(s) and keyword monitors',
      setting: 'status codes',
      reason:
        'UptimeRobot counts any 2xx or 3xx as up; Lookout follows redirects and expects 200 unless expected_status_code says otherwise',
    });
  if (input.from === 'csv')
    unmapped.push({
      source: 'the CSV export',
      setting: 'alert contacts, maintenance windows, auth, headers',
      reason: 'the CSV export does not hold them: import through the API (--api-key) to keep them',
    });
  if (input.from === 'api' && input.contacts === null)
    unmapped.push({ source: 'alert contacts', setting: '', reason: 'not listed by the API' });
  unmapped.push({
    source: 'every monitor',
    setting: 'logs, response times, uptime ratios, status pages',
    reason: 'history and status pages are not imported: Lookout starts them afresh',
  });
  const file: Record<string, unknown> = { version: 1 };
  if (channels.length) file.channels = channels;
  if (policies.length) file.escalation_policies = policies;
  if (monitors.length) file.monitors = monitors;
  if (heartbeats.length) file.heartbeats = heartbeats;
  if (win.windows.length) file.maintenance_windows = win.windows;
  return {
    file: file as ImportOutcome['file'],
    unmapped,
    secrets,
    counts: {
      monitors: input.monitors.length,
      'alert contacts': input.contacts?.length ?? 0,
      'maintenance windows': input.mwindows?.length ?? 0,
    },
  };
};
