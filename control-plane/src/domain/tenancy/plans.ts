export interface Plan {
  max_monitors: number;
  min_interval_seconds: number;
}

/** Defaults; the deployed set comes from configuration (LOOKOUT_PLANS). */
export const defaultPlans: Record<string, Plan> = {
  free: { max_monitors: 10, min_interval_seconds: 180 },
  team: { max_monitors: 100, min_interval_seconds: 30 },
  business: { max_monitors: 1000, min_interval_seconds: 10 },
};
