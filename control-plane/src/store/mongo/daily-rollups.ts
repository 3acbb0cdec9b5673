import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import { latencyBucket } from '../../domain/results/latency-histogram.js';
import { DAILY_ROLLUP_IDS, type DailyRollup } from '../../domain/results/result-store.js';
import { dayOf } from '../../domain/results/uptime.js';
import type { CheckResultRecord } from '../../domain/types.js';
import type { Doc } from './db.js';

/**
 * The daily buckets on MongoDB (`uptime_daily`): one document per (monitor, location, UTC day), `_id`
 * `monitor|location|day`, with counters only, so every write is an `$inc` upsert in the ingestion's
 * transaction. The response-time histogram is the sub-document `h` (bucket index -> count,
 * domain/results/latency-histogram.ts): `$inc` of `h.<index>` merges it in place. Buckets written
 * before it existed have no `maint_*` and no `h` (read as 0 and empty).
 */

interface DailyIncrement {
  workspace_id: string;
  monitor_id: string;
  location: string;
  day: number;
  inc: Record<string, number>;
}

const bump = (inc: Record<string, number>, key: string, n: number) => {
  inc[key] = (inc[key] ?? 0) + n;
};

/** One upsert per (monitor, location, day) of the results stored now. */
export const addToDaily = (stored: CheckResultRecord[]): AnyBulkWriteOperation<Doc>[] => {
  const by = new Map<string, DailyIncrement>();
  for (const r of stored) {
    const day = dayOf(r.scheduled_at);
    const key = `${r.monitor_id}|${r.location}|${day}`;
    let d = by.get(key);
    if (!d) {
      d = {
        workspace_id: r.workspace_id,
        monitor_id: r.monitor_id,
        location: r.location,
        day,
        inc: { total: 0, ok: 0, response_ms_sum: 0, maint_total: 0, maint_ok: 0 },
      };
      by.set(key, d);
    }
    bump(d.inc, 'total', 1);
    bump(d.inc, 'response_ms_sum', r.response_time_ms);
    if (r.ok) bump(d.inc, 'ok', 1);
    if (r.in_maintenance) {
      bump(d.inc, 'maint_total', 1);
      if (r.ok) bump(d.inc, 'maint_ok', 1);
    }
    bump(d.inc, `h.${latencyBucket(r.response_time_ms)}`, 1);
  }
  return [...by.entries()].map(([id, d]) => ({
    updateOne: {
      filter: { _id: id },
      update: {
        $setOnInsert: {
          workspace_id: d.workspace_id,
          monitor_id: d.monitor_id,
          location: d.location,
          day: new Date(d.day),
        },
        $inc: d.inc,
      },
      upsert: true,
    },
  }));
};

interface Grouped {
  _id: { m: string; d: Date };
  total: number;
  ok: number;
  maint_total: number;
  maint_ok: number;
  response_ms_sum: number;
  h: (Record<string, number> | null)[];
}

/** ResultStore.dailyRollups: one aggregation per DAILY_ROLLUP_IDS ids, on the (monitor_id, day) index. */
export const dailyRollupsOf = async (
  daily: Collection<Doc>,
  workspaceId: string,
  monitorIds: string[],
  fromDay: number,
  toDay: number,
): Promise<DailyRollup[]> => {
  const out: DailyRollup[] = [];
  const ids = [...new Set(monitorIds)].sort();
  for (let i = 0; i < ids.length; i += DAILY_ROLLUP_IDS) {
    const rows = await daily
      .aggregate<Grouped>([
        {
          $match: {
            monitor_id: { $in: ids.slice(i, i + DAILY_ROLLUP_IDS) },
            day: { $gte: new Date(fromDay), $lt: new Date(toDay) },
            workspace_id: workspaceId,
          },
        },
        {
          $group: {
            _id: { m: '$monitor_id', d: '$day' },
            total: { $sum: '$total' },
            ok: { $sum: '$ok' },
            maint_total: { $sum: '$maint_total' },
            maint_ok: { $sum: '$maint_ok' },
            response_ms_sum: { $sum: '$response_ms_sum' },
            h: { $push: '$h' },
          },
        },
        { $sort: { '_id.m': 1, '_id.d': 1 } },
      ])
      .toArray();
    for (const r of rows) {
      const latency = new Map<number, number>();
      for (const h of r.h)
        if (h)
          for (const [k, n] of Object.entries(h)) {
            const b = Number(k);
            if (n > 0) latency.set(b, (latency.get(b) ?? 0) + n);
          }
      out.push({
        monitor_id: r._id.m,
        day: r._id.d.getTime(),
        total: r.total,
        ok: r.ok,
        maint_total: r.maint_total,
        maint_ok: r.maint_ok,
        response_ms_sum: r.response_ms_sum,
        latency,
      });
    }
  }
  return out;
};
