/** A status page's components as the editor holds them, and how they go to the API and back. */
import type { ComponentBody, ComponentStatus, StatusPage } from '../../api-status.js';
import type { Problems } from '../../kit/field.js';

export type Source = 'monitor' | 'heartbeat' | 'group' | 'manual';

/** One component as the editor holds it: `key` names it in the page while it moves. */
export interface ComponentDraft {
  key: number;
  id?: string;
  name: string;
  description: string;
  group: string;
  source: Source;
  monitor_id: string;
  heartbeat_id: string;
  /** A group of monitors and heartbeats (the worst of their statuses). */
  group_id: string;
  status: ComponentStatus;
  /** A stored component set by hand keeps its stored status unless the author changes it. */
  statusChanged: boolean;
}

let nextKey = 0;
export const blankComponent = (): ComponentDraft => ({
  key: nextKey++,
  name: '',
  description: '',
  group: '',
  source: 'monitor',
  monitor_id: '',
  heartbeat_id: '',
  group_id: '',
  status: 'operational',
  statusChanged: false,
});

export const fromStored = (c: StatusPage['components'][number]): ComponentDraft => ({
  key: nextKey++,
  id: c.id,
  name: c.name,
  description: c.description ?? '',
  group: c.group ?? '',
  source: c.monitor_id ? 'monitor' : c.heartbeat_id ? 'heartbeat' : c.group_id ? 'group' : 'manual',
  monitor_id: c.monitor_id ?? '',
  heartbeat_id: c.heartbeat_id ?? '',
  group_id: c.group_id ?? '',
  // Only a component set by hand sends its status; a linked one's may be `unknown` (no data yet).
  status: c.status === 'unknown' ? 'operational' : c.status,
  statusChanged: false,
});

export const componentBody = (c: ComponentDraft): ComponentBody => ({
  ...(c.id ? { id: c.id } : {}),
  name: c.name,
  description: c.description.trim() || null,
  group: c.group.trim() || null,
  // None chosen goes as '' so that the API names the field (null would make it a component set by hand).
  ...(c.source === 'monitor' ? { monitor_id: c.monitor_id } : {}),
  ...(c.source === 'heartbeat' ? { heartbeat_id: c.heartbeat_id } : {}),
  ...(c.source === 'group' ? { group_id: c.group_id } : {}),
  // The API's status of a stored component is the live one (an open incident may make it worse):
  // sent only when the author chose one, so an incident's statement never becomes the stored status.
  ...(c.source === 'manual' && (!c.id || c.statusChanged) ? { status: c.status } : {}),
});

/** Problems the API named inside component i (`components[1].name`, …) by field, and the component's own. */
export const componentProblems = (p: Problems, i: number) => {
  const at = `components[${i}]`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) if (v && k.startsWith(`${at}.`)) out[k.slice(at.length + 1)] = v;
  if (p[at]) out.self = p[at]!;
  return out;
};
