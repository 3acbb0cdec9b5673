import { z } from 'zod';
import { checkWindow } from '../../domain/oncall/on-call-questions.js';
import {
  createOverride,
  deleteOverride,
  MAX_AHEAD_DAYS,
  overrideBody,
} from '../../domain/oncall/overrides.js';
import { isoInstant } from '../../domain/oncall/schedule-body.js';
import type { ScheduleStore } from '../../domain/oncall/schedule-store.js';
import { loadSchedule } from '../../domain/oncall/schedules.js';
import {
  assignBody,
  assignOffer,
  offerBody,
  offerShift,
  takeOffer,
  withdrawOffer,
} from '../../domain/oncall/shift-offers.js';
import { idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import type { Authed } from '../route.js';
import { type RouteDeps, route } from '../route.js';
import {
  historyJson,
  historyResponse,
  offerJson,
  offerResponse,
  overrideJson,
  overrideResponse,
  userBook,
} from './responses.js';

const DAY_MS = 86_400_000;
const TAG = 'On-call schedules';
const caller = (auth: Authed) => ({ id: auth.user.id, role: auth.user.role });

/** Overrides, shift offers (trades) and history of a schedule. */
export const scheduleTradeRoutes = ({ store, clock }: RouteDeps<ScheduleStore>) => {
  const usersOf = async (workspaceId: string, ids: (string | null)[]) =>
    userBook(
      await store.getScheduleUsers(workspaceId, [...new Set(ids.filter((x): x is string => x !== null))]),
    );
  return [
    route({
      method: 'get',
      path: '/schedules/{id}/overrides',
      tag: TAG,
      response: z.strictObject({ data: z.array(overrideResponse) }),
      summary:
        'The overrides overlapping [`from`, `to`) (both ISO 8601 with a zone; at most 93 days), by start; without them, those not yet ended. At most 1,000.',
      query: z.strictObject({ from: isoInstant().optional(), to: isoInstant().optional() }),
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params, query }) {
        const s = await loadSchedule(store, auth.workspace.id, idOf(params.id));
        const now = clock.now();
        const from = query.from ?? now;
        const to = query.to ?? new Date(now.getTime() + (MAX_AHEAD_DAYS + 31) * DAY_MS);
        if (query.from || query.to) checkWindow(from, to);
        const list = await store.listOverrides(auth.workspace.id, s.id, from, to);
        const users = await usersOf(
          auth.workspace.id,
          list.flatMap((o) => [o.user_id, o.created_by]),
        );
        return { data: list.map((o) => overrideJson(o, users)) };
      },
    }),
    route({
      method: 'post',
      path: '/schedules/{id}/overrides',
      audit: { resource_type: 'schedule_override' },
      tag: TAG,
      response: overrideResponse,
      summary:
        'Put `user_id` on call over [`starts_at`, `ends_at`), beating every layer: at most 31 days, not ending in the past, starting within a year. A member may place only themself; an admin anyone.',
      role: 'member',
      body: overrideBody,
      status: 201,
      responses: { 403: 'A member placing someone else', 404: 'No such schedule in this workspace' },
      async handler({ auth, params, body }) {
        const o = await createOverride(
          store,
          auth.workspace.id,
          idOf(params.id),
          caller(auth),
          body,
          clock.now(),
        );
        return overrideJson(o, await usersOf(auth.workspace.id, [o.user_id, o.created_by]));
      },
    }),
    route({
      method: 'delete',
      path: '/schedules/{id}/overrides/{override_id}',
      audit: { resource_type: 'schedule_override' },
      tag: TAG,
      response: null,
      summary: 'Remove an override (an admin, whoever made it, or its user).',
      role: 'member',
      status: 204,
      responses: {
        403: 'Neither an admin, its maker nor its user',
        404: 'No such override of this schedule',
      },
      async handler({ auth, params }) {
        await deleteOverride(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.override_id),
          caller(auth),
          clock.now(),
        );
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/schedules/{id}/offers',
      tag: TAG,
      response: z.strictObject({ data: z.array(offerResponse) }),
      summary: 'The shift offers of the schedule, newest first (at most 200); `status` filters.',
      query: z.strictObject({ status: z.enum(['open', 'taken', 'assigned', 'withdrawn']).optional() }),
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params, query }) {
        const s = await loadSchedule(store, auth.workspace.id, idOf(params.id));
        const list = await store.listOffers(auth.workspace.id, s.id, query.status);
        const users = await usersOf(
          auth.workspace.id,
          list.flatMap((o) => [o.user_id, o.taken_by]),
        );
        return { data: list.map((o) => offerJson(o, users)) };
      },
    }),
    route({
      method: 'post',
      path: '/schedules/{id}/offers',
      audit: { resource_type: 'shift_offer' },
      tag: TAG,
      response: offerResponse,
      summary:
        'Offer a span of my shift (`starts_at`, `ends_at`, optional `note`): I must be on call in this schedule for all of it (else 422). Another user takes it, or an admin assigns it.',
      role: 'member',
      body: offerBody,
      status: 201,
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params, body }) {
        const o = await offerShift(
          store,
          auth.workspace.id,
          idOf(params.id),
          caller(auth),
          body,
          clock.now(),
        );
        return offerJson(o, await usersOf(auth.workspace.id, [o.user_id]));
      },
    }),
    route({
      method: 'post',
      path: '/schedules/{id}/offers/{offer_id}/take',
      audit: { resource_type: 'shift_offer', action: 'shift_offer.take' },
      tag: TAG,
      response: offerResponse,
      summary:
        'Take an open offer (not your own): it becomes an override for you, in one step (409 once it is no longer open).',
      role: 'member',
      status: 200,
      responses: { 404: 'No such offer of this schedule', 409: 'No longer open, ended, or your own' },
      async handler({ auth, params }) {
        const r = await takeOffer(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.offer_id),
          caller(auth),
          clock.now(),
        );
        return offerJson(r.offer, await usersOf(auth.workspace.id, [r.offer.user_id, r.offer.taken_by]));
      },
    }),
    route({
      method: 'post',
      path: '/schedules/{id}/offers/{offer_id}/assign',
      audit: { resource_type: 'shift_offer', action: 'shift_offer.assign' },
      tag: TAG,
      response: offerResponse,
      summary: 'Assign an open offer to `user_id` (admins): it becomes an override for them, in one step.',
      role: 'admin',
      body: assignBody,
      responses: { 404: 'No such offer of this schedule', 409: 'No longer open or ended' },
      async handler({ auth, params, body }) {
        const r = await assignOffer(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.offer_id),
          caller(auth),
          body,
          clock.now(),
        );
        return offerJson(r.offer, await usersOf(auth.workspace.id, [r.offer.user_id, r.offer.taken_by]));
      },
    }),
    route({
      method: 'delete',
      path: '/schedules/{id}/offers/{offer_id}',
      audit: { resource_type: 'shift_offer' },
      tag: TAG,
      response: offerResponse,
      summary: 'Withdraw an open offer (the user who offered it, or an admin). Answers the withdrawn offer.',
      role: 'member',
      responses: {
        403: 'Neither the offerer nor an admin',
        404: 'No such offer of this schedule',
        409: 'No longer open',
      },
      async handler({ auth, params }) {
        const o = await withdrawOffer(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.offer_id),
          caller(auth),
          clock.now(),
        );
        return offerJson(o, await usersOf(auth.workspace.id, [o.user_id]));
      },
    }),
    route({
      method: 'get',
      path: '/schedules/{id}/history',
      tag: TAG,
      response: page(historyResponse),
      summary:
        'The schedule’s history, newest first: who created or edited it, added or removed overrides, offered, took, assigned or withdrew shifts, and users who left the workspace. Kept 400 days.',
      query: z.strictObject({ ...pageQuery }),
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params, query }) {
        const s = await loadSchedule(store, auth.workspace.id, idOf(params.id));
        const p = await store.listHistory(auth.workspace.id, s.id, query);
        const users = await usersOf(
          auth.workspace.id,
          p.data.map((e) => e.actor_id),
        );
        return { data: p.data.map((e) => historyJson(e, users)), next_cursor: p.next_cursor };
      },
    }),
  ];
};
