/**
 * The web app's calls for status pages and their incidents, through the typed client of api.ts.
 * Types are the API's own.
 */
import { type Body, ok, type Schemas } from '../../src/api-client/client.js';
import { client } from './api.js';

export type StatusPage = Schemas['StatusPage'];
export type StatusComponent = Schemas['StatusPageComponent'];
/** What a component shows now: a status below, or `unknown` before its monitor's or heartbeat's first data. */
export type LiveComponentStatus = StatusComponent['status'];
/** What an author sets (by hand, or in an incident). */
export type ComponentStatus = Exclude<LiveComponentStatus, 'unknown'>;
export type Visibility = StatusPage['visibility'];
export type Incident = Schemas['Incident'];
export type IncidentStatus = Incident['status'];
export type IncidentUpdate = Incident['updates'][number];
/** What the editor sends, to create or to edit (an edit sends every field: the whole list of components). */
export type StatusPageBody = Body<'/status-pages', 'post'>;
export type ComponentBody = NonNullable<StatusPageBody['components']>[number];
export type IncidentBody = Body<'/status-pages/{id}/incidents', 'post'>;
export type IncidentUpdateBody = Body<'/status-pages/{id}/incidents/{incident_id}/updates', 'post'>;

const LIMIT = 100;
const id = (id: string) => ({ params: { path: { id } } });
const incident = (id: string, incident_id: string) => ({ params: { path: { id, incident_id } } });

export const statusApi = {
  list: (cursor?: string) => ok(client.GET('/status-pages', { params: { query: { limit: LIMIT, cursor } } })),
  get: (pid: string) => ok(client.GET('/status-pages/{id}', id(pid))),
  create: (body: StatusPageBody) => ok(client.POST('/status-pages', { body })),
  update: (pid: string, body: Body<'/status-pages/{id}', 'patch'>) =>
    ok(client.PATCH('/status-pages/{id}', { ...id(pid), body })),
  remove: (pid: string) => ok(client.DELETE('/status-pages/{id}', id(pid))),
  verifyDomain: (pid: string) => ok(client.POST('/status-pages/{id}/custom-domain/verify', id(pid))),

  listIncidents: (pid: string, cursor?: string) =>
    ok(
      client.GET('/status-pages/{id}/incidents', {
        params: { path: { id: pid }, query: { limit: 20, cursor } },
      }),
    ),
  reportIncident: (pid: string, body: IncidentBody) =>
    ok(client.POST('/status-pages/{id}/incidents', { ...id(pid), body })),
  postUpdate: (pid: string, iid: string, body: IncidentUpdateBody) =>
    ok(client.POST('/status-pages/{id}/incidents/{incident_id}/updates', { ...incident(pid, iid), body })),
  editIncident: (
    pid: string,
    iid: string,
    body: Body<'/status-pages/{id}/incidents/{incident_id}', 'patch'>,
  ) => ok(client.PATCH('/status-pages/{id}/incidents/{incident_id}', { ...incident(pid, iid), body })),
  publish: (pid: string, iid: string) =>
    ok(client.POST('/status-pages/{id}/incidents/{incident_id}/publish', incident(pid, iid))),
  discard: (pid: string, iid: string) =>
    ok(client.POST('/status-pages/{id}/incidents/{incident_id}/discard', incident(pid, iid))),
  deleteIncident: (pid: string, iid: string) =>
    ok(client.DELETE('/status-pages/{id}/incidents/{incident_id}', incident(pid, iid))),
};
