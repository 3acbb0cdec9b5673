import type { Page, PageQuery } from '../types.js';

/** How the actor reached Lookout: a web session, an API key (by name), an OAuth client, the CLI, or Lookout itself. */
export type AuditActorType = 'user' | 'api_key' | 'oauth_client' | 'cli' | 'system';

export interface AuditActor {
  type: AuditActorType;
  /** The user's id (type user), the key's id, the OAuth client's id; null for the CLI and the system. */
  id: string | null;
  /** What a reader recognizes: the user's email, the key's name, the client's name, `cli`, `lookout`. */
  name: string;
  /** The user behind an API key or an OAuth client, when there is one. */
  user_id?: string | null;
}

/**
 * One entry of the audit log: who did what to which resource, when and from where, with the before/after
 * of the fields that changed (secrets redacted). Entries are append-only: no API edits or deletes one;
 * only the retention job removes those older than the workspace's retention.
 */
export interface AuditEntry {
  id: string;
  workspace_id: string;
  at: Date;
  actor: AuditActor;
  ip: string | null;
  user_agent: string | null;
  /** `<resource_type>.<verb>`, e.g. `monitor.create`, `session.sign_in`, `session.sign_in_failed`. */
  action: string;
  resource_type: string;
  resource_id: string | null;
  /** Field → [before, after] of what changed (redacted); null when the action changes no record. */
  changes: Record<string, [unknown, unknown]> | null;
}

export interface AuditFilter {
  actor?: string;
  resource_type?: string;
  action?: string;
  from?: Date;
  to?: Date;
}

/**
 * Where the audit log is kept (an adapter per store, a contract suite over both). Besides these methods,
 * each adapter writes the entry drafted for the current request inside the same store step
 * (transaction) as the change it records.
 */
export interface AuditStore {
  /** Appends one entry on its own (an action that changes no record: a failed sign-in, a test send). */
  appendAuditEntry(entry: AuditEntry): Promise<void>;
  /** Newest first, filtered, keyset-paged. */
  listAuditEntries(workspaceId: string, filter: AuditFilter, page: PageQuery): Promise<Page<AuditEntry>>;
  /** Deletes up to `limit` entries older than `before`. */
  pruneAuditEntries(before: Date, limit: number): Promise<number>;
}
