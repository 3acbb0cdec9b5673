/**
 * The web app's calls for on-call schedules (schedules, the editor's preview, who is on call, shifts,
 * overrides, shift offers, history, calendar addresses, handoff notices), through the client of
 * api.ts (its CSRF token, its 401 handling). The records are the API's pinned shapes.
 */
import { ok } from '../../src/api-client/client.js';
import { client } from './api.js';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export interface Restriction {
  days: Weekday[];
  start: string;
  end: string;
}
export type Rotation = 'daily' | 'weekly' | 'custom';
export interface LayerInput {
  name?: string;
  users: string[];
  rotation: Rotation;
  shift_seconds?: number | null;
  handoff: string;
  handoff_day?: Weekday | null;
  starts_at: string;
  restrictions?: Restriction[];
}
export interface ScheduleInput {
  name: string;
  timezone: string;
  layers: LayerInput[];
}
export interface UserRef {
  id: string;
  email: string;
}
export interface Gap {
  starts_at: string;
  ends_at: string;
}
export interface Schedule {
  id: string;
  name: string;
  timezone: string;
  layers: (Required<LayerInput> & { name: string })[];
  created_at: string;
  updated_at: string;
}
export type ScheduleDetail = Schedule & { gaps?: Gap[] };
export type ShiftSource =
  | { kind: 'layer'; layer: number; layer_name: string }
  | { kind: 'override'; override_id: string; created_by: UserRef | null };
export interface Shift {
  user: UserRef;
  starts_at: string;
  ends_at: string;
  source: ShiftSource;
}
export interface OnCall {
  user: UserRef | null;
  until: string | null;
  next: { user: UserRef; starts_at: string } | null;
  source: ShiftSource | null;
}
export interface Override {
  id: string;
  schedule_id: string;
  user: UserRef;
  starts_at: string;
  ends_at: string;
  created_by: UserRef | null;
  offer_id: string | null;
  created_at: string;
}
export interface Offer {
  id: string;
  schedule_id: string;
  user: UserRef;
  starts_at: string;
  ends_at: string;
  note: string | null;
  status: 'open' | 'taken' | 'assigned' | 'withdrawn';
  taken_by: UserRef | null;
  override_id: string | null;
  created_at: string;
}
export interface HistoryEntry {
  id: string;
  at: string;
  actor: UserRef | null;
  action: string;
  detail: unknown;
}
export interface MyShift {
  schedule: { id: string; name: string };
  starts_at: string;
  ends_at: string;
  source: ShiftSource;
}
export interface HandoffNotices {
  enabled: boolean;
  lead_minutes: number;
}
interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;
type Init = { params?: { path?: Record<string, string>; query?: Record<string, unknown> }; body?: unknown };
/** The client without its compile-time table of paths (these routes are checked by their tests). */
const raw = client as unknown as {
  GET<T>(path: string, init?: Init): Answer<T>;
  POST<T>(path: string, init?: Init): Answer<T>;
  PATCH<T>(path: string, init?: Init): Answer<T>;
  PUT<T>(path: string, init?: Init): Answer<T>;
  DELETE<T>(path: string, init?: Init): Answer<T>;
};
const get = <T>(path: string, init?: Init) => ok(raw.GET<T>(path, init));
const post = <T>(path: string, init?: Init) => ok(raw.POST<T>(path, init));

const id = (id: string) => ({ params: { path: { id } } });
const sub = (sid: string, key: 'override_id' | 'offer_id', value: string) => ({
  params: { path: { id: sid, [key]: value } },
});

export const schedulesApi = {
  listSchedules: (cursor?: string, search?: string, limit = 100) =>
    get<Page<Schedule>>('/schedules', { params: { query: { limit, cursor, search: search || undefined } } }),
  getSchedule: (sid: string) => get<ScheduleDetail>('/schedules/{id}', id(sid)),
  createSchedule: (body: ScheduleInput) => post<Schedule>('/schedules', { body }),
  updateSchedule: (sid: string, body: ScheduleInput) =>
    ok(raw.PATCH<Schedule>('/schedules/{id}', { ...id(sid), body })),
  deleteSchedule: (sid: string) => ok(raw.DELETE<unknown>('/schedules/{id}', id(sid))),
  /** The final shifts of unsaved layers over the next 14 days (with a saved schedule's overrides). */
  preview: (body: ScheduleInput & { schedule_id?: string }) =>
    post<{ data: Shift[]; gaps: Gap[] }>('/schedules/preview', { body }),
  onCall: (sid: string) => get<OnCall>('/schedules/{id}/on-call', id(sid)),
  shifts: (sid: string) => get<{ data: Shift[] }>('/schedules/{id}/shifts', id(sid)),
  overrides: (sid: string) => get<{ data: Override[] }>('/schedules/{id}/overrides', id(sid)),
  addOverride: (sid: string, body: { user_id: string; starts_at: string; ends_at: string }) =>
    post<Override>('/schedules/{id}/overrides', { ...id(sid), body }),
  removeOverride: (sid: string, oid: string) =>
    ok(raw.DELETE<unknown>('/schedules/{id}/overrides/{override_id}', sub(sid, 'override_id', oid))),
  openOffers: (sid: string) =>
    get<{ data: Offer[] }>('/schedules/{id}/offers', {
      params: { path: { id: sid }, query: { status: 'open' } },
    }),
  offerShift: (sid: string, body: { starts_at: string; ends_at: string; note?: string }) =>
    post<Offer>('/schedules/{id}/offers', { ...id(sid), body }),
  takeOffer: (sid: string, oid: string) =>
    post<Offer>('/schedules/{id}/offers/{offer_id}/take', sub(sid, 'offer_id', oid)),
  assignOffer: (sid: string, oid: string, user_id: string) =>
    post<Offer>('/schedules/{id}/offers/{offer_id}/assign', {
      ...sub(sid, 'offer_id', oid),
      body: { user_id },
    }),
  withdrawOffer: (sid: string, oid: string) =>
    ok(raw.DELETE<unknown>('/schedules/{id}/offers/{offer_id}', sub(sid, 'offer_id', oid))),
  history: (sid: string, cursor?: string) =>
    get<Page<HistoryEntry>>('/schedules/{id}/history', { params: { path: { id: sid }, query: { cursor } } }),
  scheduleCalendar: (sid: string) => post<{ url: string }>('/schedules/{id}/ical-url', id(sid)),
  revokeScheduleCalendar: (sid: string) => ok(raw.DELETE<unknown>('/schedules/{id}/ical-url', id(sid))),
  myShifts: (days = 30) => get<{ data: MyShift[] }>('/me/shifts', { params: { query: { days } } }),
  myCalendar: () => post<{ url: string }>('/me/ical-url'),
  revokeMyCalendar: () => ok(raw.DELETE<unknown>('/me/ical-url')),
  handoffNotices: () => get<HandoffNotices>('/me/handoff-notices'),
  setHandoffNotices: (body: HandoffNotices) => ok(raw.PUT<HandoffNotices>('/me/handoff-notices', { body })),
};
