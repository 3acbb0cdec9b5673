import { FIRST_MONITOR_TYPES, isMonitorType, MONITOR_TYPES, type MonitorType } from '@lookout/shared';
import { ownerOf, type Weight } from './rendezvous.js';

/**
 * What an agent can run: the check types it declared at Register (RegisterRequest.check_types). An
 * agent that declares none is older than the field and runs the first protocol's types
 * (FIRST_MONITOR_TYPES). Names this control plane does not know (a newer agent's) are left out, each
 * name is kept once and in MONITOR_TYPES order, so the stored list is short and its order stable.
 */
export const declaredCheckTypes = (declared: readonly string[]): MonitorType[] => {
  if (declared.length === 0) return [...FIRST_MONITOR_TYPES];
  const named = new Set(declared.slice(0, 200).filter(isMonitorType));
  return MONITOR_TYPES.filter((t) => named.has(t));
};

/** An agent as placement sees it: its instance and the check types it runs. */
export interface CapableAgent {
  instance_id: string;
  check_types: readonly string[];
}

/**
 * Placement among the live agents of a region: a monitor goes to the rendezvous owner among the agents
 * that can run its type, and to nobody when none can (the region-health job raises one alert per
 * region and type then, not one per monitor). With every agent able to run every type it is exactly
 * the plain rendezvous among all of them, so declaring types moves no monitor that any agent can run.
 */
export const createPlacement = (agents: readonly CapableAgent[], weight?: Weight) => {
  /** The instances able to run a type, sorted (the same list for every replica), made once a type. */
  const byType = new Map<string, string[]>();
  const capableOf = (type: string): string[] => {
    let list = byType.get(type);
    if (!list) {
      list = agents
        .filter((a) => a.check_types.includes(type))
        .map((a) => a.instance_id)
        .sort();
      byType.set(type, list);
    }
    return list;
  };
  return {
    /** The instance that runs this monitor, or null when no agent of the region can run its type. */
    ownerOf: (monitorId: string, monitorType: string) => ownerOf(monitorId, capableOf(monitorType), weight),
    capableOf,
  };
};

/**
 * The agents and what each runs, as one string: when it changes (an agent came, left or declared
 * other types on registering again) every monitor's owner is computed again.
 */
export const placementBasis = (agents: readonly CapableAgent[]) =>
  agents
    .map((a) => `${a.instance_id}=${a.check_types.join('+')}`)
    .sort()
    .join(',');
