/**
 * A small number for each monitor id the process has met, shared by its in-memory tables of monitors:
 * the store's (the state book's states, the recent index, the copy of the '*' rows), the monitor
 * catalog's records and each agent stream's record of what its agent runs. Each keeps its columns in
 * typed arrays or arrays indexed by the number, so 100,000 monitors cost one Map of their ids (~3.5 MB)
 * and one string per id rather than one of each per table. main.ts makes the one the process shares. A
 * number stays with its id for the life of the process (nothing is given back, so a number always means
 * the same monitor); the tables that let a monitor go clear their own entries for it.
 */
export const createMonitorSlots = () => {
  const slotOf = new Map<string, number>();
  const ids: string[] = [];
  return {
    /** The id's slot, given one if it has none. */
    slot(id: string): number {
      let s = slotOf.get(id);
      if (s === undefined) {
        s = ids.length;
        ids.push(id);
        slotOf.set(id, s);
      }
      return s;
    },
    /** The id's slot; -1 if it has none. */
    find: (id: string): number => slotOf.get(id) ?? -1,
    /** The id a slot was given for (the one string kept for it). */
    id: (slot: number): string => ids[slot]!,
    /** Slots given so far: every slot is below this. */
    get size() {
      return ids.length;
    },
  };
};

export type MonitorSlots = ReturnType<typeof createMonitorSlots>;

/** `a` in an array of at least `n` entries, the new ones set to `fill`. */
export const widened = <T extends Int32Array | Uint8Array | Uint16Array | Uint32Array | Float64Array>(
  a: T,
  n: number,
  fill = 0,
): T => {
  if (a.length >= n) return a;
  let size = Math.max(1024, a.length);
  while (size < n) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
};
