/**
 * The check types Lookout knows, declared once: the control plane validates monitors against this list
 * (each type's settings: control-plane/src/domain/checks/), the agent protocol carries the name as a
 * string (`CheckSpec.monitor_type`) with the type's own settings message, and the agent runs each with
 * its prober (agent/src/probers/index.ts). docs/architecture.md, "Adding a check type", lists the files.
 */
export const MONITOR_TYPES = [
  'http',
  'api',
  'dns',
  'tcp',
  'domain',
  'ping',
  'grpc',
  'websocket',
  'smtp',
  'postgres',
  'mysql',
  'redis',
  'multistep',
  'browser',
] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

/** The types of the first protocol: what an agent that declares no check types at Register runs. */
export const FIRST_MONITOR_TYPES: readonly MonitorType[] = ['http', 'api', 'dns', 'tcp', 'domain'];

const known: ReadonlySet<string> = new Set(MONITOR_TYPES);

export const isMonitorType = (value: string): value is MonitorType => known.has(value);
