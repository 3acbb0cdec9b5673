import { AppError } from '@lookout/shared';
import type { ClientSession, Document } from 'mongodb';
import type { Incident, StatusPage, StatusPageStore } from '../../domain/status-pages/status-page-store.js';
import {
  deleteSome,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicate,
  isDuplicateOn,
  type MongoContext,
  page,
  toDoc,
} from './db.js';

export const statusPageIndexes: IndexDecl[] = [
  { on: 'statusPages', key: { workspace_id: 1, slug: 1 }, options: { unique: true } },
  // A domain is unique among verified pages only (an unproved claim blocks nobody); the lookup by
  // domain reads verified pages through the same index.
  {
    on: 'statusPages',
    key: { custom_domain: 1, custom_domain_status: 1 },
    options: { unique: true, partialFilterExpression: { custom_domain_status: 'verified' } },
    replaces: ['custom_domain_1'],
  },
  { on: 'statusPages', key: { workspace_id: 1, created_at: -1, _id: -1 } },
  {
    on: 'statusPages',
    key: { custom_domain_checked_at: 1 },
    options: { partialFilterExpression: { custom_domain: { $type: 'string' } } },
  },
  {
    on: 'statusPages',
    key: { auto_draft_incidents: 1 },
    options: { partialFilterExpression: { auto_draft_incidents: true } },
  },
  { on: 'incidents', key: { page_id: 1, created_at: -1, _id: -1 } },
  {
    on: 'incidents',
    key: { page_id: 1, auto_key: 1 },
    options: { unique: true, partialFilterExpression: { auto_key: { $type: 'string' } } },
  },
  {
    on: 'incidents',
    key: { resolved_at: 1 },
    options: { partialFilterExpression: { resolved_at: { $type: 'date' } } },
  },
];

const conflictOf = (e: unknown): AppError | null => {
  if (!isDuplicate(e)) return null;
  return isDuplicateOn(e, ['custom_domain', 'custom_domain_status'])
    ? new AppError('conflict', 'This custom domain is already used by another status page.', [
        { field: 'custom_domain', message: 'is already used by another status page' },
      ])
    : new AppError('conflict', 'This slug is already used by another status page of the workspace.', [
        { field: 'slug', message: 'is already used by another status page of the workspace' },
      ]);
};

/**
 * A page as stored before custom domains needed proof has none of the proof's fields: its domain is
 * pending (not served), and its first check gives it a token (custom-domain-proof.ts).
 */
const withProof = (p: StatusPage | null): StatusPage | null =>
  p && {
    ...p,
    custom_domain_token: p.custom_domain_token ?? null,
    custom_domain_status: p.custom_domain_status ?? (p.custom_domain ? 'pending' : null),
    custom_domain_checked_at: p.custom_domain_checked_at ?? null,
    custom_domain_failures: p.custom_domain_failures ?? 0,
    custom_domain_error: p.custom_domain_error ?? null,
  };
const pagesOf = (docs: Document[]) => fromDocs<StatusPage>(docs).map((p) => withProof(p)!);

/**
 * Status pages (`status_pages`, components embedded in order) and incidents (`status_incidents`,
 * updates embedded). Uniqueness (slug per workspace, custom domain, one open automatic draft per
 * component) is held by unique indexes; an incident update is a compare-and-set on `version`.
 */
export const mongoStatusPages = ({ col, inTransaction }: MongoContext): StatusPageStore => {
  const { statusPages, incidents } = col;
  return {
    async insertStatusPage(p) {
      try {
        // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
        await inTransaction((session) => statusPages.insertOne(toDoc(p), { session }));
      } catch (e) {
        throw conflictOf(e) ?? e;
      }
    },
    async getStatusPage(workspaceId, id) {
      return withProof(
        fromDoc<StatusPage>(await statusPages.findOne({ workspace_id: workspaceId, _id: id })),
      );
    },
    async getStatusPageBySlug(workspaceId, slug) {
      return withProof(fromDoc<StatusPage>(await statusPages.findOne({ workspace_id: workspaceId, slug })));
    },
    async getStatusPageByDomain(domain) {
      return withProof(
        fromDoc<StatusPage>(
          await statusPages.findOne({ custom_domain: domain, custom_domain_status: 'verified' }),
        ),
      );
    },
    async recordDomainCheck(workspaceId, id, expected, next) {
      try {
        return await inTransaction(
          async (session) =>
            (
              await statusPages.updateOne(
                {
                  _id: id,
                  workspace_id: workspaceId,
                  custom_domain: expected.custom_domain,
                  custom_domain_token: expected.custom_domain_token,
                },
                { $set: next },
                { session },
              )
            ).matchedCount === 1,
        );
      } catch (e) {
        throw conflictOf(e) ?? e;
      }
    },
    async listDomainsDue(checkedBefore, limit) {
      return pagesOf(
        await statusPages
          .find({
            custom_domain: { $type: 'string' },
            $or: [{ custom_domain_checked_at: null }, { custom_domain_checked_at: { $lt: checkedBefore } }],
          })
          .sort({ custom_domain_checked_at: 1, _id: 1 })
          .limit(limit)
          .toArray(),
      );
    },
    async listStatusPages(workspaceId, q) {
      const p = await page<StatusPage>(statusPages, { workspace_id: workspaceId }, q);
      return { ...p, data: p.data.map((x) => withProof(x)!) };
    },
    async countStatusPages(workspaceId) {
      return statusPages.countDocuments({ workspace_id: workspaceId });
    },
    async listAutoDraftPages() {
      return pagesOf(await statusPages.find({ auto_draft_incidents: true }).toArray());
    },
    async updateStatusPage(p) {
      try {
        return await inTransaction(
          async (session) =>
            (await statusPages.replaceOne({ _id: p.id, workspace_id: p.workspace_id }, toDoc(p), { session }))
              .matchedCount === 1,
        );
      } catch (e) {
        throw conflictOf(e) ?? e;
      }
    },
    async deleteStatusPage(workspaceId, id) {
      return inTransaction(async (session) => {
        const gone =
          (await statusPages.deleteOne({ workspace_id: workspaceId, _id: id }, { session })).deletedCount ===
          1;
        if (gone)
          for (const c of [incidents, col.subscribers, col.mailEvents, col.mailOutbox])
            await c.deleteMany({ workspace_id: workspaceId, page_id: id }, { session });
        return gone;
      });
    },

    async insertIncident(i, announce) {
      try {
        if (!announce) await incidents.insertOne(toDoc(i));
        else
          await inTransaction(async (session) => {
            await incidents.insertOne(toDoc(i), { session });
            await col.mailEvents.insertOne(toDoc(announce), { session });
          });
        return true;
      } catch (e) {
        if (isDuplicateOn(e, ['page_id', 'auto_key'])) return false;
        throw e;
      }
    },
    async getIncident(workspaceId, pageId, id) {
      return fromDoc<Incident>(
        await incidents.findOne({ workspace_id: workspaceId, page_id: pageId, _id: id }),
      );
    },
    async listIncidents(workspaceId, pageId, q) {
      return page<Incident>(
        incidents,
        {
          workspace_id: workspaceId,
          page_id: pageId,
          ...(q.published === undefined ? {} : { published: q.published }),
        },
        q,
      );
    },
    async listPublicIncidents(workspaceId, pageId, resolvedSince, limit) {
      return fromDocs<Incident>(
        await incidents
          .find({
            page_id: pageId,
            workspace_id: workspaceId,
            published: true,
            $or: [{ resolved_at: null }, { resolved_at: { $gte: resolvedSince } }],
          })
          .sort({ created_at: -1, _id: -1 })
          .limit(limit)
          .toArray(),
      );
    },
    async updateIncident(i, expectedVersion, announce) {
      try {
        const replace = (session?: ClientSession) =>
          incidents.replaceOne(
            { _id: i.id, workspace_id: i.workspace_id, version: expectedVersion },
            toDoc(i),
            session ? { session } : {},
          );
        if (!announce) return (await replace()).matchedCount === 1;
        return await inTransaction(async (session) => {
          if ((await replace(session)).matchedCount !== 1) return false;
          await col.mailEvents.insertOne(toDoc(announce), { session });
          return true;
        });
      } catch (e) {
        if (isDuplicate(e))
          throw new AppError('conflict', 'Another open incident is the automatic draft of this component.');
        throw e;
      }
    },
    async deleteIncident(workspaceId, pageId, id) {
      return inTransaction(
        async (session) =>
          (await incidents.deleteOne({ workspace_id: workspaceId, page_id: pageId, _id: id }, { session }))
            .deletedCount === 1,
      );
    },
    async pruneIncidents(before, limit) {
      return deleteSome(incidents, { resolved_at: { $type: 'date', $lt: before } }, limit);
    },

    async dailyUptime(workspaceId, monitorIds, fromDay, toDay) {
      if (monitorIds.length === 0) return [];
      const rows = await col.daily
        .aggregate<{ _id: { m: string; d: Date }; total: number; ok: number }>([
          {
            $match: {
              monitor_id: { $in: monitorIds },
              day: { $gte: new Date(fromDay), $lt: new Date(toDay) },
              workspace_id: workspaceId,
            },
          },
          {
            $group: { _id: { m: '$monitor_id', d: '$day' }, total: { $sum: '$total' }, ok: { $sum: '$ok' } },
          },
          { $sort: { '_id.m': 1, '_id.d': 1 } },
        ])
        .toArray();
      return rows.map((r) => ({ monitor_id: r._id.m, day: r._id.d.getTime(), total: r.total, ok: r.ok }));
    },
  };
};
