/**
 * The monitor list's finds on MongoDB: filters, the maintenance cover as a match, the status order as
 * a walk of buckets (each a range of { workspace_id, paused, verdict, name_key, _id } in name order
 * after the cursor), the other orders, and the filters the counts share (monitor-status.ts).
 */
import type { Collection, Document } from 'mongodb';
import type {
  MonitorFilter,
  MonitorSort,
  MonitorStatus,
  MonitorStatusStore,
} from '../../domain/monitors/monitor-status.js';
import { nameKey, STATUS_OF_VERDICT, STATUS_ORDER } from '../../domain/monitors/monitor-status.js';
import type { MaintenanceCover, MonitorLocationState } from '../../domain/types.js';
import { decodeMonitorCursor, encodeMonitorCursor, type MonitorCursor } from '../monitor-cursor.js';
import { type Collections, type Doc, escapeRegex } from './db.js';
import { stateId } from './monitors.js';

/** The filters but status (the list's and the counts'). */
export const filterOf = (workspaceId: string, f: MonitorFilter): Document => {
  const and: Document[] = [{ workspace_id: workspaceId }];
  if (f.monitor_type) and.push({ monitor_type: f.monitor_type });
  if (f.paused !== undefined) and.push({ paused: f.paused });
  if (f.search) {
    const re = new RegExp(escapeRegex(f.search), 'i');
    and.push({ $or: [{ display_name: re }, { url: re }] });
  }
  if (f.region) and.push({ check_locations: f.region });
  if (f.group_id === 'none') and.push({ group_id: null });
  else if (f.group_id) and.push({ group_id: f.group_id });
  if (f.tag) and.push({ tags: f.tag });
  return { $and: and };
};

/** The monitors `cover` takes in (isCovered in domain/monitors/monitor-status.ts); null: none. */
export const coveredOf = (cover: MaintenanceCover): Document | null => {
  if (cover.workspace) return {};
  const any: Document[] = [];
  if (cover.monitorIds.length) any.push({ _id: { $in: cover.monitorIds } });
  if (cover.groupIds.length) any.push({ group_id: { $in: cover.groupIds } });
  if (cover.tags.length) any.push({ tags: { $in: cover.tags } });
  return any.length ? { $or: any } : null;
};

/** One status bucket (statusOf's precedence), or null when it is empty under `cover`. */
export const bucketOf = (status: MonitorStatus, cover: MaintenanceCover): Document | null => {
  const covered = coveredOf(cover);
  if (status === 'paused') return { paused: true };
  if (status === 'maintenance') return covered ? { $and: [{ paused: false }, covered] } : null;
  if (cover.workspace) return null;
  const verdict = { paused: false, verdict: status };
  return covered ? { $and: [verdict, { $nor: [covered] }] } : verdict;
};

/** The status filter as a match on the record (the union of the buckets). */
export const statusMatch = (statuses: MonitorStatus[], cover: MaintenanceCover): Document => {
  const any = statuses.map((s) => bucketOf(s, cover)).filter((b): b is Document => b !== null);
  return any.length ? { $or: any } : { _id: { $exists: false } };
};

const pageOf = (docs: Document[], limit: number, position: (d: Document) => MonitorCursor) => {
  const more = docs.length > limit;
  const data = more ? docs.slice(0, limit) : docs;
  const last = data[data.length - 1];
  return { data, next_cursor: more && last ? encodeMonitorCursor(position(last)) : null };
};

export const listMonitorDocs = async (
  monitors: Collection<Doc>,
  workspaceId: string,
  q: Parameters<MonitorStatusStore['listMonitorsWithStatus']>[1] & { sort?: string },
  cover: MaintenanceCover,
) => {
  const sort = (q.sort ?? 'status') as MonitorSort | 'created';
  const cur = decodeMonitorCursor(q.cursor, sort);
  const f = filterOf(workspaceId, q);
  const want = q.limit + 1;
  const statuses = q.status?.length ? q.status : null;
  if (sort === 'status') {
    const c = cur as Extract<MonitorCursor, { s: 'status' }> | null;
    const docs: Document[] = [];
    const buckets: number[] = [];
    for (let b = c?.b ?? 0; b < STATUS_ORDER.length && docs.length < want; b++) {
      const status = STATUS_ORDER[b]!;
      if (statuses && !statuses.includes(status)) continue;
      const bucket = bucketOf(status, cover);
      if (!bucket) continue;
      const and = [f, bucket];
      if (c && c.b === b)
        and.push({ $or: [{ name_key: { $gt: c.k } }, { name_key: c.k, _id: { $gt: c.id } }] });
      const got = await monitors
        .find({ $and: and })
        .sort({ name_key: 1, _id: 1 })
        .limit(want - docs.length)
        .toArray();
      for (const d of got) {
        docs.push(d);
        buckets.push(b);
      }
    }
    return pageOf(docs, q.limit, (d) => ({
      s: 'status',
      b: buckets[docs.indexOf(d)]!,
      k: d.name_key as string,
      id: d._id as string,
    }));
  }
  const and = [f, ...(statuses ? [statusMatch(statuses, cover)] : [])];
  if (sort === 'name') {
    const c = cur as Extract<MonitorCursor, { s: 'name' }> | null;
    if (c) and.push({ $or: [{ name_key: { $gt: c.k } }, { name_key: c.k, _id: { $gt: c.id } }] });
    const docs = await monitors.find({ $and: and }).sort({ name_key: 1, _id: 1 }).limit(want).toArray();
    return pageOf(docs, q.limit, (d) => ({ s: 'name', k: d.name_key as string, id: d._id as string }));
  }
  if (sort === 'last_change' || sort === 'created') {
    const field = sort === 'created' ? 'created_at' : 'status_changed_at';
    const c = cur as { t: number; id: string } | null;
    if (c) {
      const t = new Date(c.t);
      and.push({ $or: [{ [field]: { $lt: t } }, { [field]: t, _id: { $lt: c.id } }] });
    }
    const docs = await monitors
      .find({ $and: and })
      .sort({ [field]: -1, _id: -1 })
      .limit(want)
      .toArray();
    return pageOf(docs, q.limit, (d) => ({
      s: sort,
      t: (d[field] as Date).getTime(),
      id: d._id as string,
    }));
  }
  // response_time: slowest first, none last.
  const c = cur as Extract<MonitorCursor, { s: 'response_time' }> | null;
  const after: Document[] = c
    ? c.r === null
      ? [{ $match: { _rt: null, _id: { $gt: c.id } } }]
      : [
          {
            $match: {
              $or: [{ _rt: null }, { _rt: { $lt: c.r } }, { _rt: c.r, _id: { $gt: c.id } }],
            },
          },
        ]
    : [];
  const docs = await monitors
    .aggregate([
      { $match: { $and: and } },
      {
        $lookup: {
          from: 'uptime_rollups',
          localField: '_id',
          foreignField: 'monitor_id',
          pipeline: [
            { $match: { ok: { $gt: 0 } } },
            { $sort: { hour: -1, last_ok_at: -1 } },
            { $limit: 1 },
            { $project: { _id: 0, ms: '$last_ok_ms' } },
          ],
          as: '_rt_bucket',
        },
      },
      { $set: { _rt: { $ifNull: [{ $first: '$_rt_bucket.ms' }, null] } } },
      { $unset: '_rt_bucket' },
      ...after,
      { $set: { _none: { $eq: ['$_rt', null] } } },
      { $sort: { _none: 1, _rt: -1, _id: 1 } },
      { $limit: want },
    ])
    .toArray();
  return pageOf(docs, q.limit, (d) => ({
    s: 'response_time',
    r: (d._rt as number | null) ?? null,
    id: d._id as string,
  }));
};

/**
 * Monitors stored before the list's order get what it sorts on, once: the folded name, the verdict of
 * their '*' state and their last change (store/mongo/monitor-status.ts), in batches.
 */
export const backfillListOrder = async (col: Collections) => {
  for (;;) {
    const docs = await col.monitors
      .find({ name_key: { $exists: false } }, { projection: { display_name: 1, updated_at: 1 } })
      .limit(1000)
      .toArray();
    if (docs.length === 0) return;
    const states = new Map(
      (
        await col.monitorStates
          .find({ _id: { $in: docs.map((d) => stateId(d._id, '*')) } } as unknown as Doc)
          .toArray()
      ).map((s) => [s.monitor_id as string, s]),
    );
    await col.monitors.bulkWrite(
      docs.map((d) => {
        const star = states.get(d._id);
        return {
          updateOne: {
            filter: { _id: d._id, name_key: { $exists: false } },
            update: {
              $set: {
                name_key: nameKey(String(d.display_name)),
                verdict: star ? STATUS_OF_VERDICT[star.status as MonitorLocationState['status']] : 'pending',
                status_changed_at: (star?.last_result_at as Date | null) ?? d.updated_at ?? new Date(0),
              },
            },
          },
        };
      }),
      { ordered: false },
    );
  }
};
