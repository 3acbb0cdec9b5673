import type { ResourceKind } from '../kind.js';
import { channels } from './channels.js';
import { escalationPolicies } from './escalation-policies.js';
import { heartbeats } from './heartbeats.js';
import { integrations } from './integrations.js';
import { maintenanceWindows } from './maintenance-windows.js';
import { monitors } from './monitors.js';
import { statusPages } from './status-pages.js';

/**
 * Every kind of the configuration file, in the order apply creates and updates them (a kind comes
 * after the kinds it names); --prune deletes in the reverse order. A new kind is one file beside this
 * one and one line here, after the kinds it references.
 */
export const KINDS: readonly ResourceKind[] = [
  channels,
  escalationPolicies,
  monitors,
  heartbeats,
  integrations,
  maintenanceWindows,
  statusPages,
];

export const kindByKey = (key: string) => KINDS.find((k) => k.key === key);
