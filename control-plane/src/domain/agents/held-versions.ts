import { type MonitorSlots, widened } from '../monitors/monitor-slots.js';

/**
 * What one agent runs, monitor id → the version it was sent: an agent stream's record of its agent's
 * share (rpc/agent-service.ts). Held as a column of versions indexed by the process's numbers for
 * monitor ids (monitor-slots.ts; NaN where the agent runs nothing), not a map of its own: at 100,000
 * monitors a map was a 3.5 MB table per stream for the stream's life, this is 1 MB. Numbers are never
 * given back, so a number always means the same monitor.
 */
export const createHeldVersions = (slots: MonitorSlots) => {
  let versions = new Float64Array(0);
  let size = 0;
  const slotOf = (id: string) => {
    const s = slots.find(id);
    return s >= 0 && s < versions.length ? s : -1;
  };
  return {
    get(id: string): number | undefined {
      const s = slotOf(id);
      return s < 0 || Number.isNaN(versions[s]!) ? undefined : versions[s];
    },
    has: (id: string): boolean => {
      const s = slotOf(id);
      return s >= 0 && !Number.isNaN(versions[s]!);
    },
    set(id: string, version: number) {
      const s = slots.slot(id);
      if (s >= versions.length) versions = widened(versions, s + 1, Number.NaN);
      if (Number.isNaN(versions[s]!)) size++;
      versions[s] = version;
    },
    delete(id: string) {
      const s = slotOf(id);
      if (s < 0 || Number.isNaN(versions[s]!)) return;
      versions[s] = Number.NaN;
      size--;
    },
    /** The ids held, by number. */
    *keys(): IterableIterator<string> {
      for (let s = 0; s < versions.length; s++) if (!Number.isNaN(versions[s]!)) yield slots.id(s);
    },
    get size() {
      return size;
    },
  };
};

export type HeldVersions = ReturnType<typeof createHeldVersions>;
