import type { MaintenanceLookup } from '../lookups.js';
import type { MaintenanceWindow, Page, PageQuery } from '../types.js';

/**
 * Maintenance windows. Adapters: store/sqlite/routing.ts, store/mongo/routing.ts; contract
 * test/contract/routing.test.ts.
 */
export interface MaintenanceWindowStore extends MaintenanceLookup {
  insertMaintenanceWindow(window: MaintenanceWindow): Promise<void>;
  getMaintenanceWindow(workspaceId: string, id: string): Promise<MaintenanceWindow | null>;
  /** Latest start first, paged (the cursor is on `starts_at`). */
  listMaintenanceWindows(workspaceId: string, query: PageQuery): Promise<Page<MaintenanceWindow>>;
  /** Replaces name and times of the window (by workspace and id); false when there is none. */
  updateMaintenanceWindow(window: MaintenanceWindow): Promise<boolean>;
  deleteMaintenanceWindow(workspaceId: string, id: string): Promise<boolean>;
  /**
   * The windows that have not ended at `at` (upcoming and active one-off windows, every recurring
   * one), at most `limit`: what a cover (cover.ts) is computed from. A workspace holds at most
   * MAX_WINDOWS of them, so this is one small indexed read.
   */
  listLiveMaintenanceWindows(workspaceId: string, at: Date, limit: number): Promise<MaintenanceWindow[]>;
  /** Deletes up to `limit` one-off windows (of any workspace) that ended before `before`; how many. */
  pruneMaintenanceWindows(before: Date, limit: number): Promise<number>;
}
