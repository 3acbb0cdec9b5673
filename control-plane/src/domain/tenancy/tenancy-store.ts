import type { ApiKey, EscalationPolicy, Page, PageQuery, User, Workspace } from '../types.js';

export interface ApiKeyQuery extends PageQuery {
  userId?: string | undefined;
  kind?: ApiKey['kind'] | undefined;
}

/**
 * Workspaces, their users and API keys.
 * Adapters: store/sqlite/tenancy.ts, store/mongo/tenancy.ts.
 */
export interface TenancyStore {
  /** Creates the workspace, its first admin and its default escalation policy together. Throws conflict on a taken subdomain. */
  createWorkspace(input: {
    workspace: Workspace;
    admin: User;
    defaultPolicy: EscalationPolicy;
  }): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  getWorkspaceBySubdomain(subdomain: string): Promise<Workspace | null>;
  /** The service's workspace when it has exactly one (a single-workspace install), else null. */
  getOnlyWorkspace(): Promise<Workspace | null>;
  /** Throws conflict when the email is taken in the workspace. */
  createUser(user: User): Promise<void>;
  getUser(workspaceId: string, id: string): Promise<User | null>;
  getUserByEmail(workspaceId: string, email: string): Promise<User | null>;
  /** Newest first, paged. */
  listUsers(workspaceId: string, query: PageQuery): Promise<Page<User>>;

  /** Inserts a named key unless the user already has `maxActive` active (unrevoked, unexpired at `now`) named keys. */
  insertApiKey(key: ApiKey, limit: { maxActive: number; now: Date }): Promise<'inserted' | 'limit_reached'>;
  /** Revokes the user's current legacy key (if any) and inserts `key` in its place, atomically. */
  replaceLegacyKey(key: ApiKey, now: Date): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null>;
  getApiKey(workspaceId: string, id: string): Promise<ApiKey | null>;
  /** Newest first, paged; by user and by kind (legacy keys are listed apart). */
  listApiKeys(workspaceId: string, query: ApiKeyQuery): Promise<Page<ApiKey>>;
  /** Sets revoked_at if it is not set yet. Returns the key as it now is, or null if unknown. */
  revokeApiKey(workspaceId: string, id: string, now: Date): Promise<ApiKey | null>;
  recordApiKeyUse(id: string, at: Date, from: string | null): Promise<void>;
}
