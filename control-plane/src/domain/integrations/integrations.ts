import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import { z } from 'zod';
import type { AlertStore } from '../alerts/alert-store.js';
import { acknowledgeAlerts, raiseAlert } from '../alerts/alerts.js';
import type { MaintenanceLookup, PolicyLookup } from '../lookups.js';
import {
  type Actor,
  INTEGRATION_KINDS,
  type Integration,
  type IntegrationKind,
  type Workspace,
} from '../types.js';
import { nameText, parseOrThrow, throwIfProblems, uuid } from '../validation.js';
import type { InboundEvent } from './inbound-events.js';
import type { IntegrationStore } from './integration-store.js';

/**
 * Integrations: inbound alert sources (a generic webhook, Prometheus Alertmanager, Grafana, anything
 * that speaks the PagerDuty Events API v2). Each has its own service key — `lsk.` + 256 random bits,
 * shown once at creation (and on rotation), stored as SHA-256 only — which is all an inbound request
 * needs: the key names the integration, and so the workspace.
 */

export const SERVICE_KEY_PREFIX = 'lsk.';

export const createIntegrationBody = z.strictObject({
  name: nameText(100),
  kind: z.enum(INTEGRATION_KINDS),
  escalation_policy_id: uuid().nullable().optional(),
});

export const updateIntegrationBody = z.strictObject({
  name: nameText(100).optional(),
  escalation_policy_id: uuid().nullable().optional(),
});

const policyProblems = async (
  store: AlertStore & IntegrationStore & PolicyLookup & MaintenanceLookup,
  workspaceId: string,
  id: string | null | undefined,
) =>
  !id || (await store.getEscalationPolicy(workspaceId, id.toLowerCase()))
    ? []
    : [{ field: 'escalation_policy_id', message: 'no escalation policy with this id in the workspace' }];

const mintServiceKey = () => {
  const value = randomToken(SERVICE_KEY_PREFIX);
  return { value, key_hash: hashSecret(value), key_last_four: value.slice(-4) };
};

export const createIntegration = async (
  store: AlertStore & IntegrationStore & PolicyLookup & MaintenanceLookup,
  workspace: Workspace,
  body: unknown,
  now: Date,
): Promise<{ integration: Integration; service_key: string }> => {
  const input = parseOrThrow(createIntegrationBody, body);
  throwIfProblems(await policyProblems(store, workspace.id, input.escalation_policy_id));
  const { value, ...key } = mintServiceKey();
  const integration: Integration = {
    id: newId(),
    workspace_id: workspace.id,
    name: input.name,
    kind: input.kind,
    ...key,
    escalation_policy_id: input.escalation_policy_id?.toLowerCase() ?? null,
    created_at: now,
    updated_at: now,
  };
  await store.insertIntegration(integration);
  return { integration, service_key: value };
};

export const updateIntegration = async (
  store: AlertStore & IntegrationStore & PolicyLookup & MaintenanceLookup,
  existing: Integration,
  body: unknown,
  now: Date,
): Promise<Integration> => {
  const patch = parseOrThrow(updateIntegrationBody, body);
  throwIfProblems(await policyProblems(store, existing.workspace_id, patch.escalation_policy_id));
  const next: Integration = {
    ...existing,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.escalation_policy_id !== undefined
      ? { escalation_policy_id: patch.escalation_policy_id?.toLowerCase() ?? null }
      : {}),
    updated_at: now,
  };
  if (!(await store.updateIntegration(next))) throw new AppError('not_found', 'Integration not found.');
  return next;
};

/** A new service key; the old one stops working at once. */
export const rotateServiceKey = async (
  store: AlertStore & IntegrationStore & PolicyLookup & MaintenanceLookup,
  existing: Integration,
  now: Date,
) => {
  const { value, ...key } = mintServiceKey();
  const next: Integration = { ...existing, ...key, updated_at: now };
  if (!(await store.updateIntegration(next))) throw new AppError('not_found', 'Integration not found.');
  return { integration: next, service_key: value };
};

export const SERVICE_KEY_MESSAGES = {
  missing:
    'Send the integration’s service key: Authorization: Bearer <key> (or X-Lookout-Service-Key: <key>); PagerDuty events carry it as routing_key.',
  invalid: 'Service key is not valid.',
  otherSubdomain: 'Service key is not valid for this subdomain',
} as const;

/**
 * The integration a service key names. The host's workspace, when the host names one, must be the
 * integration's; a bare host (or the PagerDuty-style /v2/enqueue) is fine, since the key names it.
 */
export const authenticateServiceKey = async (
  store: AlertStore & IntegrationStore & PolicyLookup & MaintenanceLookup,
  value: string | undefined,
  kind: IntegrationKind,
  hostWorkspace: Workspace | null,
): Promise<Integration> => {
  if (!value) throw new AppError('unauthorized', SERVICE_KEY_MESSAGES.missing);
  const hash = hashSecret(value);
  const integration = await store.findIntegrationByKeyHash(hash);
  // The lookup is by hash; compare again in constant time so no early-exit comparison touches the secret.
  if (!integration || !digestsEqual(integration.key_hash, hash))
    throw new AppError('unauthorized', SERVICE_KEY_MESSAGES.invalid);
  if (hostWorkspace && hostWorkspace.id !== integration.workspace_id)
    throw new AppError('unauthorized', SERVICE_KEY_MESSAGES.otherSubdomain);
  if (integration.kind !== kind) {
    throw new AppError(
      'unauthorized',
      `This service key belongs to a ${integration.kind} integration; send its events to ${inboundPath(integration.kind)}.`,
    );
  }
  return integration;
};

/** Where each kind's events go (under /api/v1). */
export const inboundPath = (kind: IntegrationKind) =>
  kind === 'pagerduty' ? '/api/v1/integrations/pagerduty/v2/enqueue' : `/api/v1/integrations/${kind}/events`;

export interface EventOutcome {
  action: InboundEvent['action'];
  dedup_key: string;
  /** created, updated (a repeated trigger), resolved, acknowledged, already_acknowledged, or not_open. */
  outcome: 'created' | 'updated' | 'resolved' | 'acknowledged' | 'already_acknowledged' | 'not_open';
  alert_id: string | null;
}

/** Events applied between two yields to the event loop (see applyInboundEvents). */
export const APPLY_SLICE = 25;

/**
 * Applies an integration's events in order, APPLY_SLICE at a time with a yield to the event loop
 * between slices: a large Alertmanager group (up to MAX_ALERTS_PER_REQUEST) would otherwise hold the
 * process — health probes, pings, every other request — until its last alert is stored.
 *
 * A trigger raises an alert keyed by (integration, dedup
 * key) or, when one is unresolved, updates its title, description and severity; resolve and
 * acknowledge act on the unresolved alert with that key (none: `not_open`). After a resolve the
 * same key opens a new alert. The resolver/acknowledger is the integration.
 */
export const applyInboundEvents = async (
  store: AlertStore & IntegrationStore & PolicyLookup & MaintenanceLookup,
  integration: Integration,
  events: InboundEvent[],
  now: Date,
): Promise<EventOutcome[]> => {
  const by: Actor = { type: 'integration', integration_id: integration.id };
  const out: EventOutcome[] = [];
  for (const [i, e] of events.entries()) {
    if (i > 0 && i % APPLY_SLICE === 0) await nextTurn();
    const key = {
      workspace_id: integration.workspace_id,
      source_type: 'integration' as const,
      source_id: integration.id,
      cause: integration.kind,
      dedup_key: e.dedup_key,
    };
    const base = { action: e.action, dedup_key: e.dedup_key };
    if (e.action === 'trigger') {
      const r = await raiseAlert(
        store,
        {
          ...key,
          title: e.title,
          description: e.description,
          severity: e.severity,
          escalation_policy_id: integration.escalation_policy_id,
        },
        now,
      );
      if (r.created) {
        out.push({ ...base, outcome: 'created', alert_id: r.alert.id });
        continue;
      }
      const refreshed = await store.refreshOpenAlert(
        integration.workspace_id,
        r.alert.id,
        { title: e.title, description: e.description, severity: e.severity },
        now,
      );
      out.push({ ...base, outcome: 'updated', alert_id: (refreshed ?? r.alert).id });
      continue;
    }
    const open = await store.findOpenAlert(key);
    if (!open) {
      out.push({ ...base, outcome: 'not_open', alert_id: null });
      continue;
    }
    if (e.action === 'resolve') {
      const r = await store.resolveAlert(integration.workspace_id, open.id, by, now);
      out.push({ ...base, outcome: r.outcome === 'resolved' ? 'resolved' : 'not_open', alert_id: open.id });
      continue;
    }
    const r = await acknowledgeAlerts(store, integration.workspace_id, [open.id], by, now);
    out.push({
      ...base,
      outcome: r.acknowledged.length
        ? 'acknowledged'
        : r.already_acknowledged.length
          ? 'already_acknowledged'
          : 'not_open',
      alert_id: open.id,
    });
  }
  return out;
};
