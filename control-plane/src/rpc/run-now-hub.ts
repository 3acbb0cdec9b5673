/**
 * Hands run requests read from the monitor feed (confirmation re-checks, asked by any replica) to the
 * assignment streams of this process. Bounded per stream; a request for a monitor no stream here owns
 * is left to the replica whose stream does.
 */
export interface RunNowRequest {
  monitorId: string;
  location: string;
  reason: 'confirm' | 'test';
  requestId: string;
}

export const createRunNowHub = (perStreamLimit = 1000) => {
  const streams = new Set<{
    region: string;
    owns: (id: string) => boolean;
    queue: RunNowRequest[];
    wake: () => void;
  }>();
  return {
    subscribe(region: string, owns: (id: string) => boolean, wake: () => void) {
      const s = { region, owns, queue: [] as RunNowRequest[], wake };
      streams.add(s);
      return {
        take: () => s.queue.splice(0),
        close: () => streams.delete(s),
      };
    },
    publish(req: RunNowRequest): boolean {
      for (const s of streams) {
        if (s.region === req.location && s.owns(req.monitorId)) {
          if (s.queue.length < perStreamLimit) s.queue.push(req);
          s.wake();
          return true;
        }
      }
      return false;
    },
  };
};

export type RunNowHub = ReturnType<typeof createRunNowHub>;
