import { newId } from '@lookout/shared';
import { z } from 'zod';
import type { Store } from '../store/port.js';
import type { Actor, Alert, AlertSourceType } from './types.js';
import { parseOrThrow, uuid } from './validation.js';

export interface RaiseInput {
  workspace_id: string;
  source_type: AlertSourceType;
  source_id: string;
  cause: string;
  dedup_key?: string;
  title: string;
  description?: string | null;
  severity?: Alert['severity'];
  escalation_policy_id?: string | null;
}

/**
 * Raises an alert unless the same source already has an unresolved one for this cause and key;
 * then that one is returned (created=false). A resolved alert is never reopened.
 */
export const raiseAlert = (store: Store, input: RaiseInput, now: Date) =>
  store.raiseAlert({
    id: newId(),
    workspace_id: input.workspace_id,
    source_type: input.source_type,
    source_id: input.source_id,
    cause: input.cause,
    dedup_key: input.dedup_key ?? '',
    title: input.title,
    description: input.description ?? null,
    severity: input.severity ?? 'critical',
    status: 'open',
    escalation_policy_id: input.escalation_policy_id ?? null,
    created_at: now,
    updated_at: now,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    resolved_by: null,
  });

export const MAX_UUIDS_PER_REQUEST = 100;
export const uuidsBody = z.strictObject({ UUIDs: z.array(uuid()).min(1).max(MAX_UUIDS_PER_REQUEST) });

export interface ResolveReport {
  resolved: Alert[];
  already_resolved: Alert[];
  not_found: string[];
}

/** Resolves each listed alert of the workspace once; reports what happened to every UUID. */
export const resolveAlerts = async (
  store: Store,
  workspaceId: string,
  body: unknown,
  by: Actor,
  now: Date,
): Promise<ResolveReport> => {
  const { UUIDs } = parseOrThrow(uuidsBody, body);
  const report: ResolveReport = { resolved: [], already_resolved: [], not_found: [] };
  for (const id of new Set(UUIDs.map((u) => u.toLowerCase()))) {
    const r = await store.resolveAlert(workspaceId, id, by, now);
    if (r.outcome === 'not_found' || !r.alert) report.not_found.push(id);
    else report[r.outcome].push(r.alert);
  }
  return report;
};
