/**
 * Hands run requests read from the monitor feed (confirmation re-checks, "check now", first checks; asked by any
 * replica) to the assignment streams of this process.
 *
 * The promise: a request runs on the agent that owns its monitor, even when no stream holds the
 * monitor yet — it was created a moment ago (the create and the request arrive in one feed read,
 * before any stream is handed the monitor), or the region's agent is (re)connecting. Such a request
 * waits here until a stream of its region takes the monitor (`claim`, called with the monitors each
 * share change hands over), for at most `waitMs`; a stream that no longer owns a queued request,
 * or ends before sending it, gives it back (`publish` again). Bounded: per stream, and in all for the waiting ones (the oldest
 * go first). Every replica sees every request, so one that another replica's stream delivers also
 * waits here until it expires, and could run twice if its agent moved here meanwhile: the result id
 * derives from the request, so it is stored once.
 */
export interface RunNowRequest {
  monitorId: string;
  location: string;
  /** `first`: a new, changed or resumed monitor's first check (domain/monitors/monitors.ts). */
  reason: 'confirm' | 'test' | 'first';
  requestId: string;
}

/** How long a request waits for a stream of its region to hold its monitor. */
export const RUN_REQUEST_WAIT_MS = 60_000;

export const createRunNowHub = (
  opts: {
    /** Milliseconds now (the replica's clock). */
    now: () => number;
    perStreamLimit?: number;
    waitingLimit?: number;
    waitMs?: number;
  } = { now: Date.now },
) => {
  const perStreamLimit = opts.perStreamLimit ?? 1000;
  const waitingLimit = opts.waitingLimit ?? 10_000;
  const waitMs = opts.waitMs ?? RUN_REQUEST_WAIT_MS;
  const streams = new Set<{
    region: string;
    owns: (id: string) => boolean;
    queue: RunNowRequest[];
    wake: () => void;
  }>();
  /** Requests no stream here holds the monitor of yet, oldest first, by request id; and by monitor. */
  const waiting = new Map<string, { req: RunNowRequest; since: number }>();
  const waitingFor = new Map<string, Set<string>>();

  const unwait = (requestId: string) => {
    const w = waiting.get(requestId);
    if (!w) return;
    waiting.delete(requestId);
    const ids = waitingFor.get(w.req.monitorId);
    ids?.delete(requestId);
    if (ids?.size === 0) waitingFor.delete(w.req.monitorId);
  };
  const expire = () => {
    const now = opts.now();
    for (const [id, w] of waiting) {
      if (now - w.since < waitMs && waiting.size <= waitingLimit) break;
      unwait(id);
    }
  };

  const hub = {
    subscribe(region: string, owns: (id: string) => boolean, wake: () => void) {
      const s = { region, owns, queue: [] as RunNowRequest[], wake };
      streams.add(s);
      return {
        take: () => s.queue.splice(0),
        /** The requests waiting for these monitors, which this stream now holds. */
        claim(monitorIds: Iterable<string>): RunNowRequest[] {
          if (waiting.size === 0) return [];
          expire();
          const out: RunNowRequest[] = [];
          for (const id of monitorIds) {
            const ids = waitingFor.get(id);
            if (!ids) continue;
            for (const requestId of [...ids]) {
              const w = waiting.get(requestId)!;
              if (w.req.location !== region) continue;
              unwait(requestId);
              out.push(w.req);
            }
          }
          return out;
        },
        /** The stream ends: what it had not sent yet goes to another holder, or waits. */
        close() {
          streams.delete(s);
          for (const r of s.queue.splice(0)) hub.publish(r);
        },
      };
    },
    /** Queues the request on the stream that holds its monitor; true if one does, else it waits. */
    publish(req: RunNowRequest): boolean {
      for (const s of streams) {
        if (s.region === req.location && s.owns(req.monitorId)) {
          if (s.queue.length < perStreamLimit) s.queue.push(req);
          s.wake();
          return true;
        }
      }
      if (waiting.has(req.requestId)) return false;
      waiting.set(req.requestId, { req, since: opts.now() });
      const ids = waitingFor.get(req.monitorId) ?? new Set<string>();
      ids.add(req.requestId);
      waitingFor.set(req.monitorId, ids);
      expire();
      return false;
    },
    /** Requests waiting for a stream (tests). */
    waiting: () => waiting.size,
  };
  return hub;
};

export type RunNowHub = ReturnType<typeof createRunNowHub>;
