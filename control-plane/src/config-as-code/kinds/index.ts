import type { Item, ResourceKind } from '../kind.js';
import type { SecretFieldTest } from '../yaml-source.js';
import { channels } from './channels.js';
import { escalationPolicies } from './escalation-policies.js';
import { groups } from './groups.js';
import { heartbeats } from './heartbeats.js';
import { integrations } from './integrations.js';
import { maintenanceWindows } from './maintenance-windows.js';
import { monitors } from './monitors.js';
import { schedules } from './schedules.js';
import { statusPages } from './status-pages.js';

/**
 * Every kind of the configuration file, in the order apply creates and updates them (a kind comes
 * after the kinds it names); --prune deletes in the reverse order. A new kind is one file beside this
 * one and one line here, after the kinds it references.
 */
export const KINDS: readonly ResourceKind[] = [
  channels,
  schedules,
  escalationPolicies,
  groups,
  monitors,
  heartbeats,
  integrations,
  maintenanceWindows,
  statusPages,
];

export const kindByKey = (key: string) => KINDS.find((k) => k.key === key);

/** Whether a path of the file (`monitors`, 3, `auth`, `password`) is a secret field of its kind's item. */
export const isSecretField: SecretFieldTest = (data, path) => {
  const kind = typeof path[0] === 'string' ? kindByKey(path[0]) : undefined;
  if (!kind || typeof path[1] !== 'number' || path.length < 3) return false;
  const list = (data as Record<string, unknown> | null)?.[kind.key];
  const item = Array.isArray(list) ? list[path[1]] : undefined;
  return kind.secretField((item ?? {}) as Item, path.slice(2));
};
