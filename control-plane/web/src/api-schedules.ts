/**
 * The web app's calls for on-call schedules (schedules, the editor's preview, who is on call, shifts,
 * overrides, shift offers, history, calendar addresses, handoff notices), through the typed client of
 * api.ts. Types are the API's own.
 */
import type { Body, Schemas } from '../../src/api-client/client.js';
import { ok } from '../../src/api-client/client.js';
import { client } from './api.js';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export type ScheduleInput = Body<'/schedules', 'post'>;
export type LayerInput = ScheduleInput['layers'][number];
export type Restriction = { days: Weekday[]; start: string; end: string };
export type Rotation = LayerInput['rotation'];
export type UserRef = Schemas['UserRef'];
export type Schedule = Schemas['Schedule'];
export type ScheduleDetail = Schemas['ScheduleDetail'];
export type Gap = ScheduleDetail['gaps'][number];
export type Shift = Schemas['Shift'];
export type ShiftSource = Shift['source'];
export type Override = Schemas['ScheduleOverride'];
export type Offer = Schemas['ShiftOffer'];
export type HistoryEntry = Schemas['ScheduleHistoryEntry'];
export type OnCall = Awaited<ReturnType<typeof schedulesApi.onCall>>;
export type MyShift = Awaited<ReturnType<typeof schedulesApi.myShifts>>['data'][number];
export type HandoffNotices = Awaited<ReturnType<typeof schedulesApi.handoffNotices>>;

const id = (id: string) => ({ params: { path: { id } } });
const override = (sid: string, override_id: string) => ({ params: { path: { id: sid, override_id } } });
const offer = (sid: string, offer_id: string) => ({ params: { path: { id: sid, offer_id } } });

export const schedulesApi = {
  listSchedules: (cursor?: string, search?: string, limit = 100) =>
    ok(client.GET('/schedules', { params: { query: { limit, cursor, search: search || undefined } } })),
  getSchedule: (sid: string) => ok(client.GET('/schedules/{id}', id(sid))),
  createSchedule: (body: ScheduleInput) => ok(client.POST('/schedules', { body })),
  updateSchedule: (sid: string, body: ScheduleInput) =>
    ok(client.PATCH('/schedules/{id}', { ...id(sid), body })),
  deleteSchedule: (sid: string) => ok(client.DELETE('/schedules/{id}', id(sid))),
  /** The final shifts of unsaved layers over the next 14 days (with a saved schedule's overrides). */
  preview: (body: ScheduleInput & { schedule_id?: string }) =>
    ok(client.POST('/schedules/preview', { body })),
  onCall: (sid: string) => ok(client.GET('/schedules/{id}/on-call', id(sid))),
  shifts: (sid: string) => ok(client.GET('/schedules/{id}/shifts', id(sid))),
  overrides: (sid: string) => ok(client.GET('/schedules/{id}/overrides', id(sid))),
  addOverride: (sid: string, body: { user_id: string; starts_at: string; ends_at: string }) =>
    ok(client.POST('/schedules/{id}/overrides', { ...id(sid), body })),
  removeOverride: (sid: string, oid: string) =>
    ok(client.DELETE('/schedules/{id}/overrides/{override_id}', override(sid, oid))),
  openOffers: (sid: string) =>
    ok(client.GET('/schedules/{id}/offers', { params: { path: { id: sid }, query: { status: 'open' } } })),
  offerShift: (sid: string, body: { starts_at: string; ends_at: string; note?: string }) =>
    ok(client.POST('/schedules/{id}/offers', { ...id(sid), body })),
  takeOffer: (sid: string, oid: string) =>
    ok(client.POST('/schedules/{id}/offers/{offer_id}/take', offer(sid, oid))),
  assignOffer: (sid: string, oid: string, user_id: string) =>
    ok(client.POST('/schedules/{id}/offers/{offer_id}/assign', { ...offer(sid, oid), body: { user_id } })),
  withdrawOffer: (sid: string, oid: string) =>
    ok(client.DELETE('/schedules/{id}/offers/{offer_id}', offer(sid, oid))),
  history: (sid: string, cursor?: string) =>
    ok(client.GET('/schedules/{id}/history', { params: { path: { id: sid }, query: { cursor } } })),
  scheduleCalendar: (sid: string) => ok(client.POST('/schedules/{id}/ical-url', id(sid))),
  revokeScheduleCalendar: (sid: string) => ok(client.DELETE('/schedules/{id}/ical-url', id(sid))),
  myShifts: (days = 30) => ok(client.GET('/me/shifts', { params: { query: { days } } })),
  myCalendar: () => ok(client.POST('/me/ical-url')),
  revokeMyCalendar: () => ok(client.DELETE('/me/ical-url')),
  handoffNotices: () => ok(client.GET('/me/handoff-notices')),
  setHandoffNotices: (body: { enabled: boolean; lead_minutes: number }) =>
    ok(client.PUT('/me/handoff-notices', { body })),
};
