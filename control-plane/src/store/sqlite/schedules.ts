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
import type { Schedule, ScheduleOverride } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { insertSql, scheduleHistory, scheduleOverrides, schedules, shiftOffers, toRow } from './tables.js';

const isUniqueViolation = (e: unknown) =>
  e instanceof Error && 'code' in e && (e as { code: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

const SPAN_MS = MAX_OVERRIDE_DAYS * 86_400_000;

const revive = (s: Schedule | null): Schedule | null => (s ? { ...s, layers: reviveLayers(s.layers) } : null);

/**
 * Schedules in SQLite. The count of a workspace's schedules is read in the IMMEDIATE transaction that
 * inserts, so two creates never pass the cap together; every write appends its history entry in its
 * own transaction; take/assign of an offer is one transaction whose UPDATE … WHERE status = 'open' is
 * the compare-and-set. Overrides overlapping a window are one index range on (schedule_id, starts_at):
 * no override spans more than MAX_OVERRIDE_DAYS, so those starting earlier cannot overlap.
 */
export const sqliteSchedules = (ctx: SqliteContext): ScheduleStore => {
  const { st, one, many, immediate, page } = ctx;
  const appendEntry = (e: ScheduleHistoryEntry) =>
    st(insertSql(scheduleHistory)).run(toRow(scheduleHistory, e));
  const insertOverrideRow = (o: ScheduleOverride) =>
    st(insertSql(scheduleOverrides)).run(toRow(scheduleOverrides, o));
  const scheduleExists = (workspaceId: string, id: string) =>
    st('SELECT 1 FROM schedules WHERE workspace_id = ? AND id = ?').get(workspaceId, id) !== undefined;
  return {
    async insertSchedule(schedule, entry, { maxSchedules }) {
      return immediate(() => {
        const { n } = st('SELECT count(*) n FROM schedules WHERE workspace_id = ?').get(
          schedule.workspace_id,
        ) as { n: number };
        if (n >= maxSchedules) return 'limit_reached' as const;
        try {
          st(insertSql(schedules, ['name_key'])).run({
            ...toRow(schedules, schedule),
            name_key: scheduleNameKey(schedule.name),
          });
        } catch (e) {
          if (isUniqueViolation(e)) return 'name_taken' as const;
          throw e;
        }
        appendEntry(entry);
        return 'inserted' as const;
      });
    },
    async getSchedule(workspaceId, id) {
      return revive(
        one<Schedule>(
          schedules,
          'SELECT * FROM schedules WHERE workspace_id = ? AND id = ?',
          workspaceId,
          id,
        ),
      );
    },
    async listSchedules(workspaceId, q) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.search) {
        where.push('instr(name_key, ?) > 0');
        params.push(scheduleNameKey(q.search));
      }
      const p = page<Schedule>(schedules, where, params, q);
      return { ...p, data: p.data.map((s) => revive(s)!) };
    },
    async listWorkspaceSchedules(workspaceId) {
      return many<Schedule>(
        schedules,
        'SELECT * FROM schedules WHERE workspace_id = ? ORDER BY name_key, id LIMIT 1000',
        workspaceId,
      ).map((s) => revive(s)!);
    },
    async updateSchedule(next, entry) {
      return immediate(() => {
        try {
          const r = st(
            `UPDATE schedules SET name = ?, name_key = ?, timezone = ?, layers = ?, updated_at = ?
             WHERE workspace_id = ? AND id = ?`,
          ).run(
            next.name,
            scheduleNameKey(next.name),
            next.timezone,
            JSON.stringify(next.layers),
            next.updated_at.getTime(),
            next.workspace_id,
            next.id,
          );
          if (r.changes !== 1) return 'not_found' as const;
        } catch (e) {
          if (isUniqueViolation(e)) return 'name_taken' as const;
          throw e;
        }
        appendEntry(entry);
        return 'updated' as const;
      });
    },
    async deleteSchedule(workspaceId, id) {
      return immediate(() => {
        if (st('DELETE FROM schedules WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes !== 1)
          return false;
        for (const t of ['schedule_overrides', 'shift_offers', 'schedule_history'])
          st(`DELETE FROM ${t} WHERE schedule_id = ?`).run(id);
        return true;
      });
    },
    async getScheduleUsers(workspaceId, ids) {
      if (ids.length === 0) return [];
      return st(
        'SELECT id, email FROM users WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))',
      ).all(workspaceId, JSON.stringify(ids.slice(0, 1000))) as { id: string; email: string }[];
    },
    async listOverrides(workspaceId, scheduleId, from, to) {
      return many<ScheduleOverride>(
        scheduleOverrides,
        `SELECT * FROM schedule_overrides WHERE schedule_id = ? AND starts_at >= ? AND starts_at < ?
           AND ends_at > ? AND workspace_id = ? ORDER BY starts_at, id LIMIT ?`,
        scheduleId,
        from.getTime() - SPAN_MS,
        to.getTime(),
        from.getTime(),
        workspaceId,
        MAX_LISTED_OVERRIDES,
      );
    },
    async listUserOverrides(workspaceId, userId, from, to) {
      return many<ScheduleOverride>(
        scheduleOverrides,
        `SELECT * FROM schedule_overrides WHERE workspace_id = ? AND user_id = ? AND starts_at >= ?
           AND starts_at < ? AND ends_at > ? ORDER BY starts_at, id LIMIT ?`,
        workspaceId,
        userId,
        from.getTime() - SPAN_MS,
        to.getTime(),
        from.getTime(),
        MAX_LISTED_OVERRIDES,
      );
    },
    async getOverride(workspaceId, scheduleId, id) {
      return one<ScheduleOverride>(
        scheduleOverrides,
        'SELECT * FROM schedule_overrides WHERE id = ? AND workspace_id = ? AND schedule_id = ?',
        id,
        workspaceId,
        scheduleId,
      );
    },
    async insertOverride(override, entry, limit) {
      return immediate(() => {
        if (!scheduleExists(override.workspace_id, override.schedule_id)) return 'not_found' as const;
        if (limit) {
          const { n } = st(
            'SELECT count(*) n FROM schedule_overrides WHERE schedule_id = ? AND ends_at > ?',
          ).get(override.schedule_id, entry.at.getTime()) as { n: number };
          if (n >= limit.maxUpcoming) return 'limit_reached' as const;
        }
        insertOverrideRow(override);
        appendEntry(entry);
        return 'inserted' as const;
      });
    },
    async deleteOverride(workspaceId, scheduleId, id, entry) {
      return immediate(() => {
        const r = st(
          'DELETE FROM schedule_overrides WHERE id = ? AND workspace_id = ? AND schedule_id = ?',
        ).run(id, workspaceId, scheduleId);
        if (r.changes !== 1) return false;
        appendEntry(entry);
        return true;
      });
    },
    async appendHistory(entry) {
      appendEntry(entry);
    },
    async listHistory(workspaceId, scheduleId, q) {
      return page<ScheduleHistoryEntry>(
        scheduleHistory,
        ['schedule_id = ?', 'workspace_id = ?'],
        [scheduleId, workspaceId],
        q,
        'at',
      );
    },
    async insertOffer(offer, entry, limit) {
      return immediate(() => {
        if (!scheduleExists(offer.workspace_id, offer.schedule_id)) return 'not_found' as const;
        if (limit) {
          const { n } = st(
            "SELECT count(*) n FROM shift_offers WHERE schedule_id = ? AND status = 'open'",
          ).get(offer.schedule_id) as { n: number };
          if (n >= limit.maxOpen) return 'limit_reached' as const;
        }
        st(insertSql(shiftOffers)).run(toRow(shiftOffers, offer));
        appendEntry(entry);
        return 'inserted' as const;
      });
    },
    async getOffer(workspaceId, scheduleId, id) {
      return one<ShiftOffer>(
        shiftOffers,
        'SELECT * FROM shift_offers WHERE id = ? AND workspace_id = ? AND schedule_id = ?',
        id,
        workspaceId,
        scheduleId,
      );
    },
    async listOffers(workspaceId, scheduleId, status) {
      return many<ShiftOffer>(
        shiftOffers,
        `SELECT * FROM shift_offers WHERE schedule_id = ? AND workspace_id = ? AND (? IS NULL OR status = ?)
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        scheduleId,
        workspaceId,
        status ?? null,
        status ?? null,
        MAX_LISTED_OFFERS,
      );
    },
    async closeOffer({ workspaceId, scheduleId, offerId, status, override, entry }) {
      return immediate(() => {
        const r = st(
          `UPDATE shift_offers SET status = ?, taken_by = ?, override_id = ?, closed_at = ?
           WHERE id = ? AND workspace_id = ? AND schedule_id = ? AND status = 'open'`,
        ).run(status, override.user_id, override.id, entry.at.getTime(), offerId, workspaceId, scheduleId);
        if (r.changes !== 1) {
          const exists = st(
            'SELECT 1 FROM shift_offers WHERE id = ? AND workspace_id = ? AND schedule_id = ?',
          ).get(offerId, workspaceId, scheduleId);
          return exists ? ('not_open' as const) : ('not_found' as const);
        }
        insertOverrideRow(override);
        appendEntry(entry);
        return 'closed' as const;
      });
    },
    async withdrawOffer(workspaceId, scheduleId, offerId, entry) {
      return immediate(() => {
        const r = st(
          `UPDATE shift_offers SET status = 'withdrawn', closed_at = ?
           WHERE id = ? AND workspace_id = ? AND schedule_id = ? AND status = 'open'`,
        ).run(entry.at.getTime(), offerId, workspaceId, scheduleId);
        if (r.changes !== 1) {
          const exists = st(
            'SELECT 1 FROM shift_offers WHERE id = ? AND workspace_id = ? AND schedule_id = ?',
          ).get(offerId, workspaceId, scheduleId);
          return exists ? ('not_open' as const) : ('not_found' as const);
        }
        appendEntry(entry);
        return 'withdrawn' as const;
      });
    },
    async pruneSchedules({ overridesBefore, offersBefore, historyBefore }, limit) {
      return immediate(() => {
        const a = st(
          'DELETE FROM schedule_overrides WHERE id IN (SELECT id FROM schedule_overrides WHERE ends_at < ? LIMIT ?)',
        ).run(overridesBefore.getTime(), limit).changes;
        const b = st(
          `DELETE FROM shift_offers WHERE id IN (SELECT id FROM shift_offers
             WHERE closed_at IS NOT NULL AND closed_at < ? LIMIT ?)`,
        ).run(offersBefore.getTime(), limit).changes;
        const stale = st(
          `DELETE FROM shift_offers WHERE id IN (SELECT id FROM shift_offers
             WHERE status = 'open' AND ends_at < ? LIMIT ?)`,
        ).run(offersBefore.getTime(), limit).changes;
        const c = st(
          'DELETE FROM schedule_history WHERE id IN (SELECT id FROM schedule_history WHERE at < ? LIMIT ?)',
        ).run(historyBefore.getTime(), limit).changes;
        return a + b + stale + c;
      });
    },
  };
};
