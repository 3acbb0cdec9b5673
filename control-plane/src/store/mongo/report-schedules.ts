import type { ReportSchedule, ReportScheduleStore } from '../../domain/reports/report-schedule-store.js';
import type { Doc, IndexDecl, MongoContext } from './db.js';

/**
 * Monthly report schedules in MongoDB (`report_schedules`): one document per workspace, `_id` its
 * id. A save is an upsert with `$max` on `last_sent_month` (strings compare in order: `YYYY-MM`
 * sorts as time), so it never moves the claimed month back; the claim is one `updateOne` whose filter
 * holds the condition (atomic on the one document: of two callers, the second no longer matches).
 */
export const reportScheduleIndexes: IndexDecl[] = [
  { on: 'reportSchedules', key: { enabled: 1, last_sent_month: 1, _id: 1 } },
];

const fromScheduleDoc = (doc: Doc | null): ReportSchedule | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { workspace_id: _id, ...rest } as ReportSchedule;
};

export const mongoReportSchedules = ({ col, inTransaction }: MongoContext): ReportScheduleStore => {
  const { reportSchedules } = col;
  return {
    async getReportSchedule(workspaceId) {
      return fromScheduleDoc(await reportSchedules.findOne({ _id: workspaceId }));
    },
    async putReportSchedule(schedule) {
      const { workspace_id, last_sent_month, ...rest } = schedule;
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) =>
        reportSchedules.updateOne(
          { _id: workspace_id },
          { $set: rest, $max: { last_sent_month } },
          { upsert: true, session },
        ),
      );
    },
    async listDueReportSchedules(month, limit) {
      const docs = await reportSchedules
        .find({ enabled: true, last_sent_month: { $lt: month } })
        .sort({ last_sent_month: 1, _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => fromScheduleDoc(d)!);
    },
    async claimReportMonth(workspaceId, month) {
      const r = await reportSchedules.updateOne(
        { _id: workspaceId, enabled: true, last_sent_month: { $lt: month } },
        { $set: { last_sent_month: month } },
      );
      return r.modifiedCount === 1;
    },
  };
};
