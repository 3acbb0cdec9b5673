import type { AlertKey } from '../domain/alerts/alert-store.js';

/**
 * The unique key an unresolved alert holds in both adapters (cleared on resolve): at most one open
 * alert per (workspace, source, cause, dedup key), enforced by a unique index.
 */
export const openKey = (a: AlertKey): string =>
  JSON.stringify([a.workspace_id, a.source_type, a.source_id, a.cause, a.dedup_key]);
