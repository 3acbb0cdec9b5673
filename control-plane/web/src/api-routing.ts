/**
 * The web app's calls for heartbeats and routing (escalation policies, channels, integrations,
 * maintenance windows), through the one request helper of api.ts.
 */
import { call, type Page } from './api.js';

export type HeartbeatState = 'new' | 'up' | 'late' | 'down' | 'paused';

export interface Heartbeat {
  id: string;
  display_name: string;
  period_seconds: number;
  grace_seconds: number;
  state: HeartbeatState;
  paused: boolean;
  last_ping_at: string | null;
  started_at: string | null;
  /** The open alert of a heartbeat that is down (null once resolved, and while up). */
  alert_id: string | null;
  escalation_policy_id: string;
  ping_url: string;
  created_at: string;
}

export interface HeartbeatInput {
  display_name?: string;
  period_seconds?: number;
  grace_seconds?: number;
  escalation_policy_id?: string;
  paused?: boolean;
}

export interface Ping {
  id: string;
  kind: 'success' | 'start' | 'fail';
  at: string;
  received_at: string;
  source: string | null;
  rid: string | null;
  exit_status: number | null;
  body: string | null;
  duration_ms: number | null;
}

export interface EscalationStep {
  wait_minutes: number;
  notify_user_ids: string[];
  notify_channel_ids: string[];
}

export interface Policy {
  id: string;
  name: string;
  is_default: boolean;
  steps: EscalationStep[];
  repeat: number;
}

export type PolicyInput = Pick<Policy, 'name' | 'steps' | 'repeat'> & { is_default?: boolean };

export type ChannelType = 'email' | 'webhook' | 'slack';

export interface Channel {
  id: string;
  name: string;
  type: ChannelType;
  /** email: addresses; webhook: url, headers; slack: url (masked). */
  config: { addresses?: string[]; url?: string; headers?: Record<string, string> };
}

export interface ChannelTest {
  ok: boolean;
  outcome: 'sent' | 'failed';
  status_code: number | null;
  error: string | null;
  would_retry: boolean;
}

export type IntegrationKind = 'webhook' | 'alertmanager' | 'grafana' | 'pagerduty';

export interface Integration {
  id: string;
  name: string;
  kind: IntegrationKind;
  escalation_policy_id: string | null;
  key_last_four: string;
  endpoint: string;
  created_at: string;
}

export type MaintenanceScope = 'workspace' | 'monitor' | 'heartbeat';

export interface MaintenanceWindow {
  id: string;
  name: string;
  scope_type: MaintenanceScope;
  scope_id: string | null;
  starts_at: string;
  ends_at: string;
  active: boolean;
}

export interface MaintenanceInput {
  name: string;
  scope_type: MaintenanceScope;
  scope_id?: string;
  starts_at: string;
  ends_at: string;
}

const id = (s: string) => encodeURIComponent(s);
const paged = (path: string, cursor?: string, limit = 100) =>
  `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

export const routingApi = {
  listHeartbeats: (cursor?: string) => call<Page<Heartbeat>>('GET', paged('/heartbeats', cursor)),
  getHeartbeat: (uuid: string) => call<Heartbeat>('GET', `/heartbeats/${id(uuid)}`),
  createHeartbeat: (body: HeartbeatInput) => call<Heartbeat>('POST', '/heartbeats', body),
  updateHeartbeat: (uuid: string, body: HeartbeatInput) =>
    call<Heartbeat>('PATCH', `/heartbeats/${id(uuid)}`, body),
  deleteHeartbeat: (uuid: string) => call<void>('DELETE', `/heartbeats/${id(uuid)}`),
  listPings: (uuid: string, cursor?: string) =>
    call<Page<Ping>>('GET', paged(`/heartbeats/${id(uuid)}/pings`, cursor, 50)),

  listPolicies: (cursor?: string) => call<Page<Policy>>('GET', paged('/escalation-policies', cursor)),
  createPolicy: (body: PolicyInput) => call<Policy>('POST', '/escalation-policies', body),
  updatePolicy: (pid: string, body: Partial<PolicyInput>) =>
    call<Policy>('PATCH', `/escalation-policies/${id(pid)}`, body),
  deletePolicy: (pid: string) => call<void>('DELETE', `/escalation-policies/${id(pid)}`),

  listChannels: (cursor?: string) => call<Page<Channel>>('GET', paged('/channels', cursor)),
  createChannel: (body: { name: string; type: ChannelType; config: Channel['config'] }) =>
    call<Channel & { signing_secret?: string }>('POST', '/channels', body),
  updateChannel: (cid: string, body: { name?: string; config?: Channel['config'] }) =>
    call<Channel>('PATCH', `/channels/${id(cid)}`, body),
  deleteChannel: (cid: string) => call<void>('DELETE', `/channels/${id(cid)}`),
  testChannel: (cid: string) => call<ChannelTest>('POST', `/channels/${id(cid)}/test`),

  listIntegrations: (cursor?: string) => call<Page<Integration>>('GET', paged('/integrations', cursor)),
  createIntegration: (body: { name: string; kind: IntegrationKind; escalation_policy_id?: string | null }) =>
    call<Integration & { service_key: string }>('POST', '/integrations', body),
  updateIntegration: (iid: string, body: { name?: string; escalation_policy_id?: string | null }) =>
    call<Integration>('PATCH', `/integrations/${id(iid)}`, body),
  rotateIntegrationKey: (iid: string) =>
    call<Integration & { service_key: string }>('POST', `/integrations/${id(iid)}/rotate-key`),
  deleteIntegration: (iid: string) => call<void>('DELETE', `/integrations/${id(iid)}`),

  listMaintenanceWindows: (cursor?: string) =>
    call<Page<MaintenanceWindow>>('GET', paged('/maintenance-windows', cursor)),
  createMaintenanceWindow: (body: MaintenanceInput) =>
    call<MaintenanceWindow>('POST', '/maintenance-windows', body),
  updateMaintenanceWindow: (wid: string, body: Partial<Omit<MaintenanceInput, 'scope_type' | 'scope_id'>>) =>
    call<MaintenanceWindow>('PATCH', `/maintenance-windows/${id(wid)}`, body),
  endMaintenanceWindow: (wid: string) =>
    call<MaintenanceWindow>('POST', `/maintenance-windows/${id(wid)}/end`),
  deleteMaintenanceWindow: (wid: string) => call<void>('DELETE', `/maintenance-windows/${id(wid)}`),
};
