import type { SchedulePolicyLookup } from '../../domain/oncall/schedule-policy-lookup.js';
import type { SqliteContext } from './db.js';

/** The policies whose steps name a schedule, read from each step's JSON (a workspace has few policies). */
export const sqliteSchedulePolicies = ({ st }: SqliteContext): SchedulePolicyLookup => ({
  async policiesNamingSchedule(workspaceId, scheduleId, limit) {
    return st(
      `SELECT p.id, p.name FROM escalation_policies p WHERE p.workspace_id = ? AND EXISTS (
         SELECT 1 FROM json_each(p.steps) s, json_each(s.value, '$.notify_schedule_ids') x WHERE x.value = ?)
       ORDER BY p.name, p.id LIMIT ?`,
    ).all(workspaceId, scheduleId, limit) as { id: string; name: string }[];
  },
});
