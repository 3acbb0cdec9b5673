/**
 * Which escalation policies name a schedule in a step (`notify_schedule_ids`): a schedule they name is
 * not deleted (409), as a channel a policy notifies is not. Adapters: store/sqlite/schedule-policies.ts,
 * store/mongo/schedule-policies.ts; contract test/contract/handoff-notices.test.ts.
 */
export interface SchedulePolicyLookup {
  /** Those policies of the workspace (id and name, by name), at most `limit`. */
  policiesNamingSchedule(
    workspaceId: string,
    scheduleId: string,
    limit: number,
  ): Promise<{ id: string; name: string }[]>;
}
