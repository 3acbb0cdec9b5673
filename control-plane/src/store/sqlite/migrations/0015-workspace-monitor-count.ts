/**
 * The plan cap reads a per-workspace count of monitors, kept by every create and delete in their
 * transaction (monitors.ts), instead of counting the workspace's monitors on every create; seeded
 * from the monitors already stored.
 */
export default [
  'ALTER TABLE workspaces ADD COLUMN monitor_count INTEGER NOT NULL DEFAULT 0',
  `UPDATE workspaces SET monitor_count =
       (SELECT count(*) FROM monitors WHERE monitors.workspace_id = workspaces.id)`,
];
