/** A workspace's key for slug pings (`/hb/ping/{ping_key}/{slug}`), as stored: see ping-keys.ts. */
export interface PingKeyRecord {
  workspace_id: string;
  /** SHA-256 of the key, hex: what a ping is looked up by. */
  key_hash: string;
  /** The key sealed by the deployment's secret box, so that admins can be shown it again. */
  key_sealed: string;
  created_at: Date;
}

/**
 * Ping keys, one per workspace. Adapters: store/sqlite/ping-keys.ts, store/mongo/ping-keys.ts; contract:
 * test/contract/ping-keys.test.ts.
 */
export interface PingKeyStore {
  getPingKey(workspaceId: string): Promise<PingKeyRecord | null>;
  /** Stores the key unless the workspace has one already; returns the one stored (the first writer's). */
  createPingKey(key: PingKeyRecord): Promise<PingKeyRecord>;
  /** Replaces the workspace's key (the old one stops working at once). */
  replacePingKey(key: PingKeyRecord): Promise<void>;
  /** The key with this hash (indexed), or null. */
  findPingKey(keyHash: string): Promise<PingKeyRecord | null>;
}
