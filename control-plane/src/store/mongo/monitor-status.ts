import type { Document } from 'mongodb';
import {
  type MonitorStatusInfo,
  type MonitorStatusStore,
  type MonitorWithStatus,
  NO_CHECKS,
  RECENT_CHECKS,
  STATUS_OF_VERDICT,
} from '../../domain/monitors/monitor-status.js';
import { dashboardWindows, percent } from '../../domain/results/uptime.js';
import { decodeCursor, toPage } from '../cursor.js';
import { escapeRegex, fromDoc, type MongoContext } from './db.js';

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
 * Monitor status in MongoDB: two reads per page. First the workspace's active maintenance windows
 * (few: only those not yet ended), then one aggregation over the workspace's monitors in list order
 * that joins each monitor's location states ($lookup on the indexed monitor_states.monitor_id),
 * derives status and last_checked_at, filters on status and stops at the page size. The same
 * precedence as domain/monitors/monitor-status.ts: paused, maintenance, the '*' state (STATUS_OF_VERDICT),
 * pending.
 */
export const mongoMonitorStatus = ({ col }: MongoContext): MonitorStatusStore => {
  const { monitors, windows } = col;

  /** The expression deciding a monitor's status (`$_states` holds its joined location states). */
  const statusExpr = async (workspaceId: string, at: Date) => {
    const active = await windows
      .find({ workspace_id: workspaceId, ends_at: { $gt: at }, starts_at: { $lte: at } })
      .project({ scope_type: 1, scope_id: 1 })
      .toArray();
    const wholeWorkspace = active.some((w) => w.scope_type === 'workspace');
    const ids = active.filter((w) => w.scope_type === 'monitor').map((w) => w.scope_id as string);
    const star = {
      $let: {
        vars: {
          row: {
            $arrayElemAt: [{ $filter: { input: '$_states', cond: { $eq: ['$$this.location', '*'] } } }, 0],
          },
        },
        in: '$$row.status',
      },
    };
    // Nested $cond in its array form ([if, then, else]), first match wins.
    const chain = (cases: [unknown, string][], otherwise: string): unknown =>
      cases.reduceRight<unknown>((rest, [test, value]) => ({ $cond: [test, value, rest] }), otherwise);
    return chain(
      [
        [{ $eq: ['$paused', true] }, 'paused'],
        [wholeWorkspace ? true : { $in: ['$_id', ids] }, 'maintenance'],
        ...Object.entries(STATUS_OF_VERDICT).map(([row, status]): [unknown, string] => [
          { $eq: [star, row] },
          status,
        ]),
      ],
      'pending',
    );
  };

  const withStatus = async (workspaceId: string, at: Date, match: Document): Promise<Document[]> => [
    { $match: match },
    { $sort: { created_at: -1, _id: -1 } },
    { $lookup: { from: 'monitor_states', localField: '_id', foreignField: 'monitor_id', as: '_states' } },
    {
      $set: {
        status: await statusExpr(workspaceId, at),
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
  ];

  return {
    async listMonitorsWithStatus(workspaceId, q, at) {
      const f: Document = { workspace_id: workspaceId };
      if (q.monitor_type) f.monitor_type = q.monitor_type;
      if (q.paused !== undefined) f.paused = q.paused;
      if (q.search) {
        const re = new RegExp(escapeRegex(q.search), 'i');
        f.$or = [{ display_name: re }, { url: re }];
      }
      const cur = decodeCursor(q.cursor);
      const match: Document = cur
        ? {
            $and: [
              f,
              {
                $or: [
                  { created_at: { $lt: new Date(cur.t) } },
                  { created_at: new Date(cur.t), _id: { $lt: cur.id } },
                ],
              },
            ],
          }
        : f;
      const pipeline = [
        ...(await withStatus(workspaceId, at, match)),
        ...(q.status?.length ? [{ $match: { status: { $in: q.status } } }] : []),
        { $limit: q.limit + 1 },
        ...(q.checks !== false ? checksStages(at) : []),
      ];
      const docs = await monitors.aggregate(pipeline).toArray();
      return toPage(
        docs.map((d) => fromDoc<MonitorWithStatus>(withSummary(d, q.checks !== false))!),
        q.limit,
      );
    },
    async getMonitorStatuses(workspaceId, ids, at) {
      if (ids.length === 0) return new Map();
      const docs = await monitors
        .aggregate([
          ...(await withStatus(workspaceId, at, { workspace_id: workspaceId, _id: { $in: ids } })),
          { $project: { status: 1, last_checked_at: 1 } },
          ...checksStages(at),
        ])
        .toArray();
      return new Map(
        docs.map((d) => {
          const { _id, ...info } = withSummary(d, true);
          return [_id as string, { ...info, last_checked_at: (d.last_checked_at as Date | null) ?? null }];
        }),
      ) as Map<string, MonitorStatusInfo>;
    },
  };
};
