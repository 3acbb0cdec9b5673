/**
 * A workspace secret (`{{secrets.NAME}}` in multi-step checks, `secrets.NAME` in browser scripts):
 * write-only through the API. Its value is kept only sealed (secret box, context secretContext()),
 * and never returned, logged or reported by an agent.
 */
export interface WorkspaceSecret {
  workspace_id: string;
  /** SECRET_NAME (sealed-secrets.ts): unique per workspace. */
  name: string;
  sealed_value: string;
  /** The last four characters of the value, for recognising it (values shorter than 12 show none). */
  hint: string;
  created_at: Date;
  updated_at: Date;
  /** The user (or null: an API key without one) who last set it. */
  updated_by: string | null;
}

/** Workspace secrets. Adapters: store/sqlite/secrets.ts, store/mongo/secrets.ts. */
export interface SecretStore {
  /** Creates or replaces the value of `name`; true when it was created. */
  putSecret(secret: WorkspaceSecret): Promise<boolean>;
  getSecret(workspaceId: string, name: string): Promise<WorkspaceSecret | null>;
  /** Every secret of the workspace by name (bounded: MAX_SECRETS per workspace). */
  listSecrets(workspaceId: string): Promise<WorkspaceSecret[]>;
  /** The named secrets that exist (one read), for a monitor's save and its sealed copies. */
  getSecrets(workspaceId: string, names: readonly string[]): Promise<WorkspaceSecret[]>;
  deleteSecret(workspaceId: string, name: string): Promise<boolean>;
}
