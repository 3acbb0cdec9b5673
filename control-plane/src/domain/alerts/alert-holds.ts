import { newId } from '@lookout/shared';
import type { AlertHoldStore, HoldSourceType } from './alert-hold-store.js';

/**
 * A source with dependencies went down: instead of raising its alert, it gets a hold (once; a hold
 * already there stays as it is), due at once, which the dependency job decides
 * (domain/dependencies/dependency-holds.ts). One insert, whatever the number of dependencies.
 */
export const holdAlert = (
  store: Pick<AlertHoldStore, 'insertAlertHold'>,
  source: { workspace_id: string; type: HoldSourceType; id: string },
  now: Date,
) =>
  store.insertAlertHold(
    {
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
    {
      id: newId(),
      workspace_id: source.workspace_id,
      source_type: source.type,
      source_id: source.id,
      at: now,
      kind: 'held',
      dependency_id: null,
      message: 'Went down; its alert waits until its dependencies have been checked.',
    },
  );
