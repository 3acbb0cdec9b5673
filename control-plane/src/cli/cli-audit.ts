import { systemClock } from '@lookout/shared';
import { claimingStore, newDraft, runAudited } from '../domain/audit/audit-scope.js';
import type { AuditEntry } from '../domain/audit/audit-store.js';
import type { Store } from '../store/port.js';

/**
 * A command's change to a workspace, audited with the actor `cli` (no id: whoever runs the CLI on the
 * server): written by the store step that makes it, as for the API (domain/audit/audit-scope.ts).
 */
export const asCli = <T>(
  store: Store,
  workspaceId: string,
  what: { action: string; resource_type: string; resource_id?: string; changes?: AuditEntry['changes'] },
  fn: (s: Store) => Promise<T>,
) => runAudited(store, cliDraft(workspaceId, what), () => fn(claimingStore(store)));
export const cliDraft = (
  workspaceId: string,
  what: { action: string; resource_type: string; resource_id?: string; changes?: AuditEntry['changes'] },
) =>
  newDraft({
    workspace_id: workspaceId,
    at: systemClock.now(),
    actor: { type: 'cli', id: null, name: 'cli' },
    ip: null,
    user_agent: null,
    action: what.action,
    resource_type: what.resource_type,
    resource_id: what.resource_id ?? null,
    changes: what.changes ?? null,
  });
