import { newId } from '@lookout/shared';
import type { AlertHold, AlertHoldStore, HoldSourceType, SourceEvent } from './alert-hold-store.js';

/**
 * Sources with dependencies went down: instead of raising their alerts, each gets a hold (once; a hold
 * already there stays as it is), due at once, which the dependency job decides
 * (domain/dependencies/dependency-holds.ts). One store step for all of them, whatever the number of
 * dependencies.
 */
export const holdAlerts = (
  store: Pick<AlertHoldStore, 'insertAlertHolds'>,
  sources: { workspace_id: string; type: HoldSourceType; id: string }[],
  now: Date,
) => store.insertAlertHolds(sources.map((source) => heldNow(source, now)));

const heldNow = (
  source: { workspace_id: string; type: HoldSourceType; id: string },
  now: Date,
): { hold: AlertHold; event: SourceEvent } => ({
  hold: {
    workspace_id: source.workspace_id,
    source_type: source.type,
    source_id: source.id,
    state: 'held',
    suppressed_by: null,
    since: now,
    hold_until: null,
    due_at: now,
    version: 1,
  },
  event: {
    id: newId(),
    workspace_id: source.workspace_id,
    source_type: source.type,
    source_id: source.id,
    at: now,
    kind: 'held',
    dependency_id: null,
    message: 'Went down; its alert waits until its dependencies have been checked.',
  },
});
