import type { SchedulePolicyLookup } from '../../domain/oncall/schedule-policy-lookup.js';
import type { MongoContext } from './db.js';

/** The policies whose steps name a schedule (a workspace's policies, read by its workspace index). */
export const mongoSchedulePolicies = ({ col }: MongoContext): SchedulePolicyLookup => ({
  async policiesNamingSchedule(workspaceId, scheduleId, limit) {
    const docs = await col.policies
      .find(
        { workspace_id: workspaceId, 'steps.notify_schedule_ids': scheduleId },
        { projection: { _id: 1, name: 1 } },
      )
      .sort({ name: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ id: d._id as string, name: d.name as string }));
  },
});
