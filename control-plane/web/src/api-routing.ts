/**
 * The web app's calls for heartbeats and routing (escalation policies, channels, integrations,
 * maintenance windows), through the typed client of api.ts. Types are the API's own.
 */
import type { Body, Schemas } from '../../src/api-client/client.js';
import { ok } from '../../src/api-client/client.js';
import { client } from './api.js';

export type Heartbeat = Schemas['Heartbeat'];
export type HeartbeatState = Heartbeat['state'];
/** What the heartbeat form sends, to create or to edit. */
export type HeartbeatInput = Body<'/heartbeats', 'post'>;
/** What the heartbeat form sends: an edit's body, which may also remove the slug (null). */
export type HeartbeatEdit = Body<'/heartbeats/{uuid}', 'patch'> & { display_name: string };
export type PingKey = Schemas['PingKey'];
export type Policy = Schemas['EscalationPolicy'];
export type EscalationStep = Policy['steps'][number];
export type PolicyInput = Body<'/escalation-policies', 'post'>;
export type Channel = Schemas['Channel'];
export type ChannelBody = Body<'/channels', 'post'>;
export type ChannelKind = Schemas['ChannelKind'];
export type Delivery = Schemas['Delivery'];
export type Integration = Schemas['Integration'];
export type IntegrationKind = Integration['kind'];
export type MaintenanceWindow = Schemas['MaintenanceWindow'];
export type MaintenanceScope = MaintenanceWindow['scope_type'];
export type MaintenanceInput = Body<'/maintenance-windows', 'post'>;

const LIMIT = 100;
const page = (cursor?: string, limit = LIMIT) => ({ limit, cursor });
const id = (id: string) => ({ params: { path: { id } } });
const uuid = (uuid: string) => ({ params: { path: { uuid } } });
const integration = (integration_id: string) => ({ params: { path: { integration_id } } });

export const routingApi = {
  listHeartbeats: (cursor?: string, q?: string) =>
    ok(client.GET('/heartbeats', { params: { query: { ...page(cursor), q: q || undefined } } })),
  getHeartbeat: (u: string) => ok(client.GET('/heartbeats/{uuid}', uuid(u))),
  createHeartbeat: (body: HeartbeatInput) => ok(client.POST('/heartbeats', { body })),
  updateHeartbeat: (u: string, body: Body<'/heartbeats/{uuid}', 'patch'>) =>
    ok(client.PATCH('/heartbeats/{uuid}', { ...uuid(u), body })),
  deleteHeartbeat: (u: string) => ok(client.DELETE('/heartbeats/{uuid}', uuid(u))),
  listPings: (u: string, cursor?: string) =>
    ok(client.GET('/heartbeats/{uuid}/pings', { params: { path: { uuid: u }, query: page(cursor, 50) } })),
  getPingKey: () => ok(client.GET('/ping-key')),
  regeneratePingKey: () => ok(client.POST('/ping-key/regenerate')),

  listPolicies: (cursor?: string) =>
    ok(client.GET('/escalation-policies', { params: { query: page(cursor) } })),
  createPolicy: (body: PolicyInput) => ok(client.POST('/escalation-policies', { body })),
  updatePolicy: (pid: string, body: Body<'/escalation-policies/{id}', 'patch'>) =>
    ok(client.PATCH('/escalation-policies/{id}', { ...id(pid), body })),
  deletePolicy: (pid: string) => ok(client.DELETE('/escalation-policies/{id}', id(pid))),

  listChannels: (cursor?: string) => ok(client.GET('/channels', { params: { query: page(cursor) } })),
  createChannel: (body: ChannelBody) => ok(client.POST('/channels', { body })),
  updateChannel: (cid: string, body: Body<'/channels/{id}', 'patch'>) =>
    ok(client.PATCH('/channels/{id}', { ...id(cid), body })),
  deleteChannel: (cid: string) => ok(client.DELETE('/channels/{id}', id(cid))),
  testChannel: (cid: string) => ok(client.POST('/channels/{id}/test', id(cid))),
  listChannelKinds: () => ok(client.GET('/channel-kinds')),
  listDeliveries: (cid: string, cursor?: string) =>
    ok(client.GET('/channels/{id}/deliveries', { params: { path: { id: cid }, query: page(cursor, 20) } })),

  listIntegrations: (cursor?: string) => ok(client.GET('/integrations', { params: { query: page(cursor) } })),
  createIntegration: (body: Body<'/integrations', 'post'>) => ok(client.POST('/integrations', { body })),
  updateIntegration: (iid: string, body: Body<'/integrations/{integration_id}', 'patch'>) =>
    ok(client.PATCH('/integrations/{integration_id}', { ...integration(iid), body })),
  rotateIntegrationKey: (iid: string) =>
    ok(client.POST('/integrations/{integration_id}/rotate-key', integration(iid))),
  deleteIntegration: (iid: string) => ok(client.DELETE('/integrations/{integration_id}', integration(iid))),

  listGroups: (cursor?: string, q?: string) =>
    ok(client.GET('/groups', { params: { query: { ...page(cursor), q: q || undefined } } })),
  getGroup: (gid: string) => ok(client.GET('/groups/{id}', id(gid))),

  listMaintenanceWindows: (cursor?: string) =>
    ok(client.GET('/maintenance-windows', { params: { query: page(cursor) } })),
  createMaintenanceWindow: (body: MaintenanceInput) => ok(client.POST('/maintenance-windows', { body })),
  updateMaintenanceWindow: (wid: string, body: Body<'/maintenance-windows/{id}', 'patch'>) =>
    ok(client.PATCH('/maintenance-windows/{id}', { ...id(wid), body })),
  endMaintenanceWindow: (wid: string) => ok(client.POST('/maintenance-windows/{id}/end', id(wid))),
  deleteMaintenanceWindow: (wid: string) => ok(client.DELETE('/maintenance-windows/{id}', id(wid))),
};

export type Ping = Awaited<ReturnType<typeof routingApi.listPings>>['data'][number];
export type ChannelTest = Awaited<ReturnType<typeof routingApi.testChannel>>;
