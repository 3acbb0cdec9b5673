import type { Document } from 'mongodb';
import type {
  MonitorStatus,
  MonitorStatusInfo,
  MonitorStatusStore,
  MonitorWithStatus,
} from '../../domain/monitor-status.js';
import { decodeCursor, toPage } from '../cursor.js';
import { fromDoc, type MongoContext } from './db.js';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Monitor status in MongoDB: two reads per page. First the workspace's active maintenance windows
 * (few: only those not yet ended), then one aggregation over the workspace's monitors in list order
 * that joins each monitor's location states ($lookup on the indexed monitor_states.monitor_id),
 * derives status and last_checked_at, filters on status and stops at the page size. The same
 * precedence as domain/monitor-status.ts: paused, maintenance, the '*' state, pending.
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
        [{ $eq: [star, 'up'] }, 'up'],
        [{ $eq: [star, 'down'] }, 'down'],
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
      ];
      const docs = await monitors.aggregate(pipeline).toArray();
      return toPage(
        docs.map((d) => fromDoc<MonitorWithStatus>(d)!),
        q.limit,
      );
    },
    async getMonitorStatuses(workspaceId, ids, at) {
      if (ids.length === 0) return new Map();
      const docs = await monitors
        .aggregate([
          ...(await withStatus(workspaceId, at, { workspace_id: workspaceId, _id: { $in: ids } })),
          { $project: { status: 1, last_checked_at: 1 } },
        ])
        .toArray();
      return new Map(
        docs.map((d) => [
          d._id as string,
          { status: d.status as MonitorStatus, last_checked_at: (d.last_checked_at as Date | null) ?? null },
        ]),
      ) as Map<string, MonitorStatusInfo>;
    },
  };
};
