/**
 * Where the hosted MCP connector's OAuth records live (clients, authorization codes, access and
 * refresh tokens, grants, and the authorization server's own interaction records). The records are
 * oidc-provider's models (http/oauth/provider.ts adapts them); this port only stores, finds and
 * deletes them. Adapters: store/sqlite/oauth.ts, store/mongo/oauth.ts; contract test/contract/oauth.ts.
 *
 * A record's id (the token, code or client id itself) is never stored: `key_hash` is its SHA-256, so
 * a copy of the store holds no usable token. Every record belongs to one workspace (one authorization
 * server per workspace), and every lookup names the workspace.
 */
export interface OAuthRecord {
  workspace_id: string;
  /** oidc-provider's model name: Client, Grant, AccessToken, RefreshToken, AuthorizationCode, Session, Interaction, … */
  model: string;
  /** SHA-256 (hex) of the record's id. */
  key_hash: string;
  /** The model's payload as oidc-provider gave it, minus the id. */
  payload: Record<string, unknown>;
  /** The grant this record belongs to (for a Grant, its own id): revoking a grant deletes them all. */
  grant_id: string | null;
  /** The user the record acts for (Grant, tokens, codes). */
  account_id: string | null;
  client_id: string | null;
  /** A Session's uid (its secondary key). */
  uid: string | null;
  created_at: Date;
  /** Past it the record is gone (readers check; prune and MongoDB's TTL index delete). Null: never. */
  expires_at: Date | null;
  /** Set once when a code or refresh token is used; oidc-provider refuses (and revokes the grant on) a second use. */
  consumed_at: Date | null;
}

export interface OAuthGrantFilter {
  accountId?: string;
  clientId?: string;
  inUse?: boolean;
}

export interface OAuthStore {
  /** Inserts or replaces the record with this (workspace, model, key_hash). */
  upsertOAuthRecord(record: OAuthRecord): Promise<void>;
  findOAuthRecord(workspaceId: string, model: string, keyHash: string): Promise<OAuthRecord | null>;
  findOAuthRecordByUid(workspaceId: string, model: string, uid: string): Promise<OAuthRecord | null>;
  /** Marks the record used at `at` (the first time only). */
  consumeOAuthRecord(workspaceId: string, model: string, keyHash: string, at: Date): Promise<void>;
  deleteOAuthRecord(workspaceId: string, model: string, keyHash: string): Promise<void>;
  /** Deletes every record of the grant (the grant, its codes and tokens); how many were deleted. */
  revokeOAuthGrant(workspaceId: string, grantId: string): Promise<number>;
  /**
   * Grants unexpired at `now`, newest first: of one user (`accountId`) or of every user, of one client
   * (`clientId`) or any; with `inUse`, only grants with an access or refresh token unexpired at `now`
   * and not used up (a grant whose code was never exchanged has none).
   */
  listOAuthGrants(workspaceId: string, filter: OAuthGrantFilter, now: Date): Promise<OAuthRecord[]>;
  /** A client has been used (got a token): clears its expiry, so it is kept (domain/access/oauth-clients.ts). */
  keepOAuthClient(workspaceId: string, keyHash: string): Promise<void>;
  /**
   * Registered clients not expired at `now`, of one workspace or (null) of every workspace: how many,
   * and when the first of them expires (the next free place under a cap; null when none expires).
   */
  countOAuthClients(
    workspaceId: string | null,
    now: Date,
  ): Promise<{ count: number; next_expiry: Date | null }>;
  /** Deletes up to `limit` records expired at `now`; how many. */
  pruneOAuthRecords(now: Date, limit: number): Promise<number>;
}
