import type { ClientSession } from 'mongodb';
import { schedulesWithoutUser } from '../../domain/oncall/schedule-removal.js';
import {
  MAX_LISTED_OFFERS,
  MAX_LISTED_OVERRIDES,
  MAX_OVERRIDE_DAYS,
  reviveLayers,
  type ScheduleHistoryEntry,
  type ScheduleStore,
  type ShiftOffer,
  scheduleNameKey,
} from '../../domain/oncall/schedule-store.js';
import type { Schedule, ScheduleOverride, User } from '../../domain/types.js';
import {
  bumpGuard,
  type Collections,
  deleteSome,
  escapeRegex,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicateOn,
  type MongoContext,
  page,
  type Query,
  runQuery,
  toDoc,
} from './db.js';

export const scheduleIndexes: IndexDecl[] = [
  { on: 'schedules', key: { workspace_id: 1, name_key: 1 }, options: { unique: true } },
  { on: 'schedules', key: { workspace_id: 1, created_at: -1, _id: -1 } },
  { on: 'scheduleOverrides', key: { schedule_id: 1, starts_at: 1 } },
  { on: 'scheduleOverrides', key: { workspace_id: 1, user_id: 1, starts_at: 1 } },
  { on: 'scheduleOverrides', key: { ends_at: 1 } },
  { on: 'shiftOffers', key: { schedule_id: 1, created_at: -1, _id: -1 } },
  { on: 'shiftOffers', key: { workspace_id: 1, user_id: 1, status: 1 } },
  { on: 'shiftOffers', key: { closed_at: 1 } },
  { on: 'shiftOffers', key: { status: 1, ends_at: 1 } },
  { on: 'scheduleHistory', key: { schedule_id: 1, at: -1, _id: -1 } },
  { on: 'scheduleHistory', key: { at: 1 } },
];

const NAME_KEY = ['workspace_id', 'name_key'];
const SPAN_MS = MAX_OVERRIDE_DAYS * 86_400_000;

/**
 * The overrides of a schedule overlapping [from, to): one range on (schedule_id, starts_at), since no
 * override spans more than MAX_OVERRIDE_DAYS (mongo-scenarios.ts explains it).
 */
export const overlappingOverridesQuery = (
  workspaceId: string,
  scheduleId: string,
  from: Date,
  to: Date,
): Query => ({
  filter: {
    schedule_id: scheduleId,
    starts_at: { $gte: new Date(from.getTime() - SPAN_MS), $lt: to },
    ends_at: { $gt: from },
    workspace_id: workspaceId,
  },
  sort: { starts_at: 1, _id: 1 },
  limit: MAX_LISTED_OVERRIDES,
});

const revive = (s: Schedule | null): Schedule | null => (s ? { ...s, layers: reviveLayers(s.layers) } : null);

/**
 * Schedules in MongoDB. An insert bumps the workspace's guard before it counts, so two creates racing
 * for the last place conflict and one is retried (and finds the cap); the unique (workspace, name key)
 * index refuses a second schedule of the same name. Every write and its history entry are one
 * transaction; take/assign is one transaction whose updateOne on {status: 'open'} is the
 * compare-and-set (a concurrent one conflicts and, retried, no longer matches).
 */
export const mongoSchedules = (ctx: MongoContext): ScheduleStore => {
  const { col, inTransaction } = ctx;
  const { schedules, scheduleOverrides, shiftOffers, scheduleHistory, workspaces } = col;
  const nameTaken = (e: unknown) => isDuplicateOn(e, NAME_KEY);
  const appendEntry = (e: ScheduleHistoryEntry, session: ClientSession) =>
    scheduleHistory.insertOne(toDoc(e), { session });
  /** Bumps the schedule's guard (write skew: two counting inserts conflict); false when there is none. */
  const touchSchedule = async (workspaceId: string, id: string, session: ClientSession) =>
    (await schedules.updateOne({ _id: id, workspace_id: workspaceId }, { $inc: { guard: 1 } }, { session }))
      .matchedCount === 1;
  const offerOutcome = async (workspaceId: string, scheduleId: string, id: string) =>
    (await shiftOffers.findOne(
      { _id: id, workspace_id: workspaceId, schedule_id: scheduleId },
      { projection: { _id: 1 } },
    ))
      ? ('not_open' as const)
      : ('not_found' as const);
  return {
    async insertSchedule(schedule, entry, { maxSchedules }) {
      try {
        return await inTransaction(async (session) => {
          await bumpGuard(workspaces, schedule.workspace_id, session);
          const n = await schedules.countDocuments({ workspace_id: schedule.workspace_id }, { session });
          if (n >= maxSchedules) return 'limit_reached' as const;
          await schedules.insertOne(
            { ...toDoc(schedule), name_key: scheduleNameKey(schedule.name) },
            { session },
          );
          await appendEntry(entry, session);
          return 'inserted' as const;
        });
      } catch (e) {
        if (nameTaken(e)) return 'name_taken';
        throw e;
      }
    },
    async getSchedule(workspaceId, id) {
      return revive(fromDoc<Schedule>(await schedules.findOne({ workspace_id: workspaceId, _id: id })));
    },
    async listSchedules(workspaceId, q) {
      const f: Record<string, unknown> = { workspace_id: workspaceId };
      if (q.search) f.name_key = new RegExp(escapeRegex(scheduleNameKey(q.search)));
      const p = await page<Schedule>(schedules, f, q);
      return { ...p, data: p.data.map((s) => revive(s)!) };
    },
    async listWorkspaceSchedules(workspaceId) {
      const docs = await schedules
        .find({ workspace_id: workspaceId })
        .sort({ name_key: 1, _id: 1 })
        .limit(1000)
        .toArray();
      return fromDocs<Schedule>(docs).map((s) => revive(s)!);
    },
    async updateSchedule(next, entry) {
      try {
        return await inTransaction(async (session) => {
          const r = await schedules.updateOne(
            { _id: next.id, workspace_id: next.workspace_id },
            {
              $set: {
                name: next.name,
                name_key: scheduleNameKey(next.name),
                timezone: next.timezone,
                layers: next.layers,
                updated_at: next.updated_at,
              },
            },
            { session },
          );
          if (r.matchedCount !== 1) return 'not_found' as const;
          await appendEntry(entry, session);
          return 'updated' as const;
        });
      } catch (e) {
        if (nameTaken(e)) return 'name_taken';
        throw e;
      }
    },
    async deleteSchedule(workspaceId, id) {
      return inTransaction(async (session) => {
        const gone = await schedules.deleteOne({ workspace_id: workspaceId, _id: id }, { session });
        if (gone.deletedCount !== 1) return false;
        for (const c of [scheduleOverrides, shiftOffers, scheduleHistory])
          await c.deleteMany({ schedule_id: id }, { session });
        return true;
      });
    },
    async getScheduleUsers(workspaceId, ids) {
      if (ids.length === 0) return [];
      const docs = await col.users
        .find(
          { workspace_id: workspaceId, _id: { $in: ids.slice(0, 1000) } },
          { projection: { _id: 1, email: 1 } },
        )
        .toArray();
      return docs.map((d) => ({ id: d._id, email: d.email as string }));
    },
    async listOverrides(workspaceId, scheduleId, from, to) {
      return fromDocs<ScheduleOverride>(
        await runQuery(scheduleOverrides, overlappingOverridesQuery(workspaceId, scheduleId, from, to)),
      );
    },
    async listUserOverrides(workspaceId, userId, from, to) {
      const docs = await scheduleOverrides
        .find({
          workspace_id: workspaceId,
          user_id: userId,
          starts_at: { $gte: new Date(from.getTime() - SPAN_MS), $lt: to },
          ends_at: { $gt: from },
        })
        .sort({ starts_at: 1, _id: 1 })
        .limit(MAX_LISTED_OVERRIDES)
        .toArray();
      return fromDocs<ScheduleOverride>(docs);
    },
    async getOverride(workspaceId, scheduleId, id) {
      return fromDoc<ScheduleOverride>(
        await scheduleOverrides.findOne({ _id: id, workspace_id: workspaceId, schedule_id: scheduleId }),
      );
    },
    async insertOverride(override, entry, limit) {
      return inTransaction(async (session) => {
        // The schedule's document is the guard: two inserts counting at once conflict on it.
        if (!(await touchSchedule(override.workspace_id, override.schedule_id, session)))
          return 'not_found' as const;
        if (limit) {
          const n = await scheduleOverrides.countDocuments(
            { schedule_id: override.schedule_id, ends_at: { $gt: entry.at } },
            { session, limit: limit.maxUpcoming },
          );
          if (n >= limit.maxUpcoming) return 'limit_reached' as const;
        }
        await scheduleOverrides.insertOne(toDoc(override), { session });
        await appendEntry(entry, session);
        return 'inserted' as const;
      });
    },
    async deleteOverride(workspaceId, scheduleId, id, entry) {
      return inTransaction(async (session) => {
        const r = await scheduleOverrides.deleteOne(
          { _id: id, workspace_id: workspaceId, schedule_id: scheduleId },
          { session },
        );
        if (r.deletedCount !== 1) return false;
        await appendEntry(entry, session);
        return true;
      });
    },
    async appendHistory(entry) {
      await scheduleHistory.insertOne(toDoc(entry));
    },
    async listHistory(workspaceId, scheduleId, q) {
      return page<ScheduleHistoryEntry>(
        scheduleHistory,
        { schedule_id: scheduleId, workspace_id: workspaceId },
        q,
        'at',
      );
    },
    async insertOffer(offer, entry, limit) {
      return inTransaction(async (session) => {
        if (!(await touchSchedule(offer.workspace_id, offer.schedule_id, session)))
          return 'not_found' as const;
        if (limit) {
          const n = await shiftOffers.countDocuments(
            { schedule_id: offer.schedule_id, status: 'open' },
            { session, limit: limit.maxOpen },
          );
          if (n >= limit.maxOpen) return 'limit_reached' as const;
        }
        await shiftOffers.insertOne(toDoc(offer), { session });
        await appendEntry(entry, session);
        return 'inserted' as const;
      });
    },
    async getOffer(workspaceId, scheduleId, id) {
      return fromDoc<ShiftOffer>(
        await shiftOffers.findOne({ _id: id, workspace_id: workspaceId, schedule_id: scheduleId }),
      );
    },
    async listOffers(workspaceId, scheduleId, status) {
      const docs = await shiftOffers
        .find({ schedule_id: scheduleId, workspace_id: workspaceId, ...(status ? { status } : {}) })
        .sort({ created_at: -1, _id: -1 })
        .limit(MAX_LISTED_OFFERS)
        .toArray();
      return fromDocs<ShiftOffer>(docs);
    },
    async closeOffer({ workspaceId, scheduleId, offerId, status, override, entry }) {
      const closed = await inTransaction(async (session) => {
        const r = await shiftOffers.updateOne(
          { _id: offerId, workspace_id: workspaceId, schedule_id: scheduleId, status: 'open' },
          { $set: { status, taken_by: override.user_id, override_id: override.id, closed_at: entry.at } },
          { session },
        );
        if (r.modifiedCount !== 1) return false;
        await scheduleOverrides.insertOne(toDoc(override), { session });
        await appendEntry(entry, session);
        return true;
      });
      return closed ? 'closed' : offerOutcome(workspaceId, scheduleId, offerId);
    },
    async withdrawOffer(workspaceId, scheduleId, offerId, entry) {
      const done = await inTransaction(async (session) => {
        const r = await shiftOffers.updateOne(
          { _id: offerId, workspace_id: workspaceId, schedule_id: scheduleId, status: 'open' },
          { $set: { status: 'withdrawn', closed_at: entry.at } },
          { session },
        );
        if (r.modifiedCount !== 1) return false;
        await appendEntry(entry, session);
        return true;
      });
      return done ? 'withdrawn' : offerOutcome(workspaceId, scheduleId, offerId);
    },
    async pruneSchedules({ overridesBefore, offersBefore, historyBefore }, limit) {
      const a = await deleteSome(scheduleOverrides, { ends_at: { $lt: overridesBefore } }, limit);
      const b = await deleteSome(shiftOffers, { closed_at: { $ne: null, $lt: offersBefore } }, limit);
      const stale = await deleteSome(shiftOffers, { status: 'open', ends_at: { $lt: offersBefore } }, limit);
      const c = await deleteSome(scheduleHistory, { at: { $lt: historyBefore } }, limit);
      return a + b + stale + c;
    },
  };
};

/** Inside the member removal's transaction: the user leaves the schedules (domain/oncall/schedule-removal.ts). */
export const removeFromSchedules = async (
  col: Collections,
  workspaceId: string,
  user: User,
  now: Date,
  session: ClientSession,
) => {
  const naming = fromDocs<Schedule>(
    await col.schedules
      .find({ workspace_id: workspaceId, 'layers.users': user.id }, { session })
      .sort({ name_key: 1, _id: 1 })
      .toArray(),
  ).map((s) => revive(s)!);
  const overrides = fromDocs<ScheduleOverride>(
    await col.scheduleOverrides
      .find({ workspace_id: workspaceId, user_id: user.id, ends_at: { $gt: now } }, { session })
      .toArray(),
  );
  const offers = fromDocs<ShiftOffer>(
    await col.shiftOffers
      .find({ workspace_id: workspaceId, user_id: user.id, status: 'open' }, { session })
      .toArray(),
  );
  const r = schedulesWithoutUser({ user, naming, overrides, offers, now });
  for (const s of r.updated)
    await col.schedules.updateOne(
      { _id: s.id, workspace_id: workspaceId },
      { $set: { layers: s.layers, updated_at: now } },
      { session },
    );
  if (r.deleteOverrideIds.length > 0)
    await col.scheduleOverrides.deleteMany({ _id: { $in: r.deleteOverrideIds } }, { session });
  if (r.endOverrideIds.length > 0)
    await col.scheduleOverrides.updateMany(
      { _id: { $in: r.endOverrideIds } },
      { $set: { ends_at: now } },
      { session },
    );
  if (r.deleteOfferIds.length > 0)
    await col.shiftOffers.deleteMany({ _id: { $in: r.deleteOfferIds } }, { session });
  if (r.entries.length > 0) await col.scheduleHistory.insertMany(r.entries.map(toDoc), { session });
  return r.left;
};
