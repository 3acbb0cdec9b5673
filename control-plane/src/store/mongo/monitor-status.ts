import type { Document } from 'mongodb';
import { isCovered } from '../../domain/maintenance/cover.js';
import {
  type MonitorCounts,
  type MonitorStatusInfo,
  type MonitorStatusStore,
  type MonitorVerdict,
  type MonitorWithStatus,
  NO_CHECKS,
  RECENT_CHECKS,
  STATUS_ORDER,
  statusOf,
} from '../../domain/monitors/monitor-status.js';
import { dashboardWindows, percent } from '../../domain/results/uptime.js';
import type { MaintenanceCover } from '../../domain/types.js';
import { fromDoc, type MongoContext } from './db.js';
import { coveredOf, filterOf, listMonitorDocs } from './monitor-list.js';

/**
 * The checks summary, joined per monitor of a page (after its $limit, so only the page's monitors):
 * its rollup buckets of the two windows as domain/results/uptime.ts `dashboardWindows` splits them (hourly
 * and daily, each a $lookup on an indexed { monitor_id, hour|day } range), its newest
 * bucket with a success, and its RECENT_CHECKS newest results (the results page index
 * { monitor_id, scheduled_at: -1, _id: -1 }, read in index order and cut by $limit).
 */
const checksStages = (at: Date): Document[] => {
  const w = dashboardWindows(at);
  const from24h = new Date(w.from24h);
  const from30d = new Date(w.from30d);
  const fullDaysFrom = new Date(w.fullDaysFrom);
  const fullDaysTo = new Date(w.fullDaysTo);
  const when = (test: Document, field: string) => ({ $sum: { $cond: [test, field, 0] } });
  return [
    {
      // Hourly buckets: the hours before the whole days, and from the whole days' end (or 24 h ago) on.
      $lookup: {
        from: 'uptime_rollups',
        localField: '_id',
        foreignField: 'monitor_id',
        pipeline: [
          {
            $match: {
              $or: [
                { hour: { $gte: from30d, $lt: fullDaysFrom } },
                { hour: { $gte: from24h < fullDaysTo ? from24h : fullDaysTo } },
              ],
            },
          },
          {
            $group: {
              _id: null,
              total_30d: when(
                { $or: [{ $lt: ['$hour', fullDaysFrom] }, { $gte: ['$hour', fullDaysTo] }] },
                '$total',
              ),
              ok_30d: when(
                { $or: [{ $lt: ['$hour', fullDaysFrom] }, { $gte: ['$hour', fullDaysTo] }] },
                '$ok',
              ),
              total_24h: when({ $gte: ['$hour', from24h] }, '$total'),
              ok_24h: when({ $gte: ['$hour', from24h] }, '$ok'),
            },
          },
        ],
        as: '_uptime',
      },
    },
    {
      // Daily buckets of the whole days.
      $lookup: {
        from: 'uptime_daily',
        localField: '_id',
        foreignField: 'monitor_id',
        pipeline: [
          { $match: { day: { $gte: fullDaysFrom, $lt: fullDaysTo } } },
          { $group: { _id: null, total: { $sum: '$total' }, ok: { $sum: '$ok' } } },
        ],
        as: '_daily',
      },
    },
    {
      $lookup: {
        from: 'uptime_rollups',
        localField: '_id',
        foreignField: 'monitor_id',
        pipeline: [
          // The index gives buckets newest hour first; the newest hour's locations are compared below.
          { $match: { ok: { $gt: 0 } } },
          { $sort: { hour: -1 } },
          { $limit: 16 },
          { $project: { _id: 0, hour: 1, at: '$last_ok_at', ms: '$last_ok_ms' } },
        ],
        as: '_last_ok',
      },
    },
    {
      $lookup: {
        from: 'check_results',
        localField: '_id',
        foreignField: 'monitor_id',
        pipeline: [
          { $sort: { scheduled_at: -1, _id: -1 } },
          { $limit: RECENT_CHECKS },
          {
            $project: {
              _id: 0,
              at: '$scheduled_at',
              ok: 1,
              location: 1,
              response_time_ms: {
                $cond: [
                  { $or: ['$ok', { $ne: [{ $ifNull: ['$status_code', null] }, null] }] },
                  '$response_time_ms',
                  null,
                ],
              },
            },
          },
        ],
        as: '_recent',
      },
    },
  ];
};

/** The response time of the newest successful check among the newest hour's buckets. */
const newestOk = (buckets: Document[]): number | null => {
  const hour = (buckets[0]?.hour as Date | undefined)?.getTime();
  let best: Document | undefined;
  for (const b of buckets)
    if ((b.hour as Date).getTime() === hour && (!best || (b.at as Date) > (best.at as Date))) best = b;
  return (best?.ms as number | null | undefined) ?? null;
};

/** The summary from the joined arrays (percentages rounded like everywhere, in domain/results/uptime.ts). */
const summaryOf = (d: Document) => {
  const u = (d._uptime as Document[] | undefined)?.[0];
  const days = (d._daily as Document[] | undefined)?.[0];
  const total30 = (u?.total_30d ?? 0) + (days?.total ?? 0);
  const ok30 = (u?.ok_30d ?? 0) + (days?.ok ?? 0);
  const recent = ((d._recent as Document[] | undefined) ?? []).map((c) => ({
    at: c.at as Date,
    ok: c.ok === true,
    location: c.location as string,
    response_time_ms: (c.response_time_ms as number | null) ?? null,
  }));
  return {
    uptime_24h: u ? percent(u.ok_24h, u.total_24h) : null,
    uptime_30d: percent(ok30, total30),
    last_response_time_ms: newestOk((d._last_ok as Document[] | undefined) ?? []),
    recent_checks: recent.reverse(),
  };
};

const withSummary = (d: Document, checks: boolean): Document => {
  const { _uptime, _daily, _last_ok, _recent, ...rest } = d;
  // Object.assign, not `{ ...rest, ...summary }`: see monitorJson (http/monitors/responses.ts).
  return Object.assign({}, rest, checks ? summaryOf(d) : NO_CHECKS);
};

/**
 * Monitor status in MongoDB. A page is one find per status bucket it reaches (each a range of the
 * index { workspace_id, paused, verdict, name_key, _id } in name order after the cursor; the cover
 * is read by the caller, domain/maintenance/cover.ts), then one aggregation over the page's monitors
 * for when each was last checked and its checks summary. The `response_time` order reads each
 * matching monitor's newest bucket with a success: a cost that grows with the workspace.
 */
export const mongoMonitorStatus = ({ col }: MongoContext): MonitorStatusStore => {
  const { monitors } = col;

  /** The page's records with their status, last check and (with `checks`) checks summary, in `docs`' order. */
  const complete = async (docs: Document[], cover: MaintenanceCover, at: Date, checks: boolean) => {
    if (docs.length === 0) return [];
    const extra = await monitors
      .aggregate([
        { $match: { _id: { $in: docs.map((d) => d._id) } } },
        { $project: { _id: 1 } },
        { $lookup: { from: 'monitor_states', localField: '_id', foreignField: 'monitor_id', as: '_states' } },
        {
          $set: {
            last_checked_at: {
              $max: {
                $map: {
                  input: { $filter: { input: '$_states', cond: { $ne: ['$$this.location', '*'] } } },
                  in: '$$this.last_result_at',
                },
              },
            },
          },
        },
        { $unset: '_states' },
        ...(checks ? checksStages(at) : []),
      ])
      .toArray();
    const byId = new Map(extra.map((e) => [e._id as string, e]));
    return docs.map((d) => {
      const e = byId.get(d._id as string) ?? {};
      const status = statusOf(
        { paused: d.paused === true, verdict: (d.verdict as MonitorVerdict | undefined) ?? 'pending' },
        isCovered(cover, {
          type: 'monitor',
          id: d._id as string,
          group_id: d.group_id as string | null | undefined,
          tags: d.tags as string[] | undefined,
        }),
      );
      const summary = withSummary(e, checks);
      const { _id, ...info } = summary;
      return Object.assign({}, d, info, {
        status,
        last_checked_at: (e.last_checked_at as Date | null | undefined) ?? null,
      });
    });
  };

  return {
    async listMonitorsWithStatus(workspaceId, q, at, cover) {
      const { data, next_cursor } = await listMonitorDocs(monitors, workspaceId, q, cover);
      const shown = await complete(
        data.map(({ _rt, _none, ...d }) => d),
        cover,
        at,
        q.checks !== false,
      );
      return { data: shown.map((d) => fromDoc<MonitorWithStatus>(d)!), next_cursor };
    },
    async countMonitorsByStatus(workspaceId, filter, cover) {
      const counts: MonitorCounts = { up: 0, down: 0, pending: 0, paused: 0, maintenance: 0, total: 0 };
      const f = filterOf(workspaceId, filter);
      const groups = await monitors
        .aggregate<{ _id: { p: boolean; v: MonitorVerdict | null }; n: number }>([
          { $match: f },
          { $group: { _id: { p: '$paused', v: '$verdict' }, n: { $sum: 1 } } },
        ])
        .toArray();
      for (const g of groups) {
        if (g._id.p) counts.paused += g.n;
        else if (cover.workspace) counts.maintenance += g.n;
        else counts[g._id.v ?? 'pending'] += g.n;
      }
      const covered = coveredOf(cover);
      if (!cover.workspace && covered) {
        const moved = await monitors
          .aggregate<{ _id: MonitorVerdict | null; n: number }>([
            { $match: { $and: [f, { paused: false }, covered] } },
            { $group: { _id: '$verdict', n: { $sum: 1 } } },
          ])
          .toArray();
        for (const g of moved) {
          counts[g._id ?? 'pending'] -= g.n;
          counts.maintenance += g.n;
        }
      }
      if (filter.status?.length) for (const s of STATUS_ORDER) if (!filter.status.includes(s)) counts[s] = 0;
      counts.total = STATUS_ORDER.reduce((n, s) => n + counts[s], 0);
      return counts;
    },
    async getMonitorStatuses(workspaceId, ids, at, cover) {
      if (ids.length === 0) return new Map();
      const docs = await monitors
        .find({ workspace_id: workspaceId, _id: { $in: ids } })
        .project({ paused: 1, verdict: 1, group_id: 1, tags: 1 })
        .toArray();
      const shown = await complete(docs, cover, at, true);
      return new Map(
        shown.map((d) => {
          const { _id, paused, verdict, group_id, tags, ...info } = d;
          return [_id as string, info];
        }),
      ) as Map<string, MonitorStatusInfo>;
    },
  };
};
