import type { ProbeSpec } from './probe-port.js';

/** What a spec holds besides its monitor's id and URL: the same for most monitors. */
export type SpecShape = Omit<ProbeSpec, 'monitor_id' | 'url'>;

/** One shape, shared by every monitor that has it; `users` counts them. */
export interface SharedShape {
  readonly key: string;
  readonly shape: SpecShape;
  users: number;
}

/**
 * The distinct spec shapes of the assigned monitors, each kept once and counted, so a monitor costs
 * its id, its URL and a reference (a spec object of its own is ~160 bytes: 16 MB at 100,000 monitors).
 * A shape is forgotten when its last monitor releases it, so the table is bounded by the monitors.
 */
export const createSpecShapes = () => {
  const shapes = new Map<string, SharedShape>();
  return {
    /** The shared shape of a spec (counted: release it when the monitor goes or changes). */
    acquire(spec: ProbeSpec): SharedShape {
      const { monitor_id: _id, url: _url, ...shape } = spec;
      const key = JSON.stringify(shape);
      let s = shapes.get(key);
      if (!s) {
        s = { key, shape, users: 0 };
        shapes.set(key, s);
      }
      s.users++;
      return s;
    },
    release(s: SharedShape) {
      if (--s.users === 0) shapes.delete(s.key);
    },
    get size() {
      return shapes.size;
    },
  };
};

/**
 * The spec a run hands the prober: a shape with its monitor's id and URL (a short-lived object). The
 * id and URL come first: on Node 20 a spread followed by keys it lacks gives every object a hidden
 * class of its own, one per check here (docs/decisions.md, "Objects on hot paths").
 */
export const specFor = (s: SharedShape, monitorId: string, url: string): ProbeSpec =>
  ({
    monitor_id: monitorId,
    url,
    ...s.shape,
  }) as ProbeSpec;
