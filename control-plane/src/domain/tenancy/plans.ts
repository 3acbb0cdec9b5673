export interface Plan {
  max_monitors: number;
  min_interval_seconds: number;
  /** Heartbeats a workspace may have (API creates and slug pings with ?create=1); absent: no cap. */
  max_heartbeats?: number;
  /** Status pages a workspace may have; absent: no cap. */
  max_status_pages?: number;
}

/** Defaults; the deployed set comes from configuration (LOOKOUT_PLANS). */
export const defaultPlans: Record<string, Plan> = {
  free: { max_monitors: 10, min_interval_seconds: 180, max_heartbeats: 20, max_status_pages: 1 },
  team: { max_monitors: 100, min_interval_seconds: 30, max_heartbeats: 200, max_status_pages: 10 },
  business: { max_monitors: 1000, min_interval_seconds: 10, max_heartbeats: 2000, max_status_pages: 100 },
};
