/**
 * The check types Lookout knows, declared once: the control plane validates monitors against this list,
 * the agent protocol carries the name as a string (`CheckSpec.monitor_type`), and the agent refuses
 * anything else. A new type is added here, then one prober and one case in `agent/src/probers/index.ts`
 * (the compiler points at every switch that misses it).
 */
export const MONITOR_TYPES = ['http', 'api', 'dns', 'tcp', 'domain'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

const known: ReadonlySet<string> = new Set(MONITOR_TYPES);

export const isMonitorType = (value: string): value is MonitorType => known.has(value);
