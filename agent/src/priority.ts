import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** What lowering the priority touches: the process's threads and how to read and set each one's nice. */
export interface PriorityPort {
  /** The ids of the process's threads (Linux: /proc/self/task), or null where they cannot be listed. */
  threads(): number[] | null;
  get(id: number): number;
  set(id: number, nice: number): void;
}

const osPriority: PriorityPort = {
  threads() {
    try {
      return readdirSync('/proc/self/task').map(Number);
    } catch {
      return null;
    }
  },
  get: (id) => getPriority(id),
  set: (id, nice) => setPriority(id, nice),
};

const errno = (e: unknown) => (e as { info?: { code?: string } }).info?.code ?? (e as { code?: string }).code;

/**
 * Lowers the agent's CPU priority to `nice` (Unix niceness, 0–19; LOOKOUT_AGENT_NICE) for every thread
 * it has: on Linux niceness belongs to each thread, and V8's and libuv's threads exist before the agent's
 * code runs (threads started later take the main thread's). Only ever lowers: a thread already nicer
 * is left as it is, and raising a priority would need privileges the agent should not have. Returns the
 * threads it could not change, with the reason; the caller logs them and runs on.
 */
export const lowerPriority = (
  nice: number,
  port: PriorityPort = osPriority,
): { changed: number; failed: { thread: number; reason: string }[] } => {
  const failed: { thread: number; reason: string }[] = [];
  let changed = 0;
  if (nice <= 0) return { changed, failed };
  // Elsewhere (macOS) the process's priority is one value: pid 0 is the whole process.
  for (const id of port.threads() ?? [0]) {
    try {
      if (port.get(id) >= nice) continue;
      port.set(id, nice);
      changed++;
    } catch (e) {
      // A thread that ended meanwhile has nothing left to slow down (node's SystemError: info.code).
      if (errno(e) === 'ESRCH') continue;
      failed.push({ thread: id, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return { changed, failed };
};
