import { describe, expect, it } from 'vitest';
import type { MonitorCovered } from '../results/result-maintenance.js';
import type { MaintenanceWindow } from '../types.js';
import { createResultCover } from './result-cover.js';

const T = Date.UTC(2026, 2, 1, 10);
const at = (s: number) => new Date(T + s * 1000);
const window = (over: Partial<MaintenanceWindow>): MaintenanceWindow => ({
  id: 'w1',
  workspace_id: 'ws',
  name: 'deploy',
  scope_type: 'monitor',
  scope_id: 'm1',
  starts_at: at(0),
  ends_at: at(600),
  schedule: null,
  timezone: null,
  duration_seconds: null,
  created_at: at(-60),
  ...over,
});

/** A store holding `windows` (per workspace), counting its reads. */
const storeOf = (windows: Record<string, MaintenanceWindow[]>) => {
  const reads: { ws: string; at: Date }[] = [];
  return {
    reads,
    store: {
      listLiveMaintenanceWindows: async (ws: string, t: Date, limit: number) => {
        reads.push({ ws, at: t });
        return (windows[ws] ?? []).filter((w) => !w.ends_at || w.ends_at > t).slice(0, limit);
      },
    },
  };
};
const ask = async (c: ReturnType<typeof createResultCover>, ws: string, now: Date) =>
  (await c(ws, now)) as MonitorCovered;
const mon = (id: string, group_id: string | null = null, tags: string[] = []) => ({ id, group_id, tags });

describe('the maintenance test of ingestion', () => {
  it('covers a monitor by its own window, its group or a tag, at the scheduled time', async () => {
    const { store } = storeOf({
      ws: [
        window({}),
        window({ id: 'w2', scope_type: 'group', scope_id: 'g1' }),
        window({ id: 'w3', scope_type: 'tag', scope_id: 'db', starts_at: at(300) }),
      ],
    });
    const covered = (await ask(createResultCover(store), 'ws', at(30)))!;
    expect(covered(mon('m1'), at(10))).toBe(true);
    expect(covered(mon('m1'), at(-1))).toBe(false);
    expect(covered(mon('m1'), at(600))).toBe(false);
    expect(covered(mon('m2', 'g1'), at(10))).toBe(true);
    expect(covered(mon('m2', 'g2'), at(10))).toBe(false);
    expect(covered(mon('m3', null, ['web', 'db']), at(10))).toBe(false);
    expect(covered(mon('m3', null, ['web', 'db']), at(310))).toBe(true);
  });

  it('answers null for a workspace without windows, from the cache, reading again after the ttl', async () => {
    const windows: Record<string, MaintenanceWindow[]> = {};
    const { store, reads } = storeOf(windows);
    const cover = createResultCover(store, { ttlMs: 5000 });
    expect(await cover('ws', at(0))).toBeNull();
    // Cached: answered at once (no promise), no read.
    expect(cover('ws', at(4))).toBeNull();
    expect(reads).toHaveLength(1);
    windows.ws = [window({})];
    expect(cover('ws', at(4))).toBeNull();
    // After the ttl the window made meanwhile is seen.
    const covered = await ask(cover, 'ws', at(5));
    expect(covered?.(mon('m1'), at(5))).toBe(true);
    expect(reads).toHaveLength(2);
  });

  it('shares one read among concurrent asks, and judges late results by windows ended since', async () => {
    const { store, reads } = storeOf({ ws: [window({})] });
    const cover = createResultCover(store, { lateMs: 3_600_000 });
    const [a, b] = await Promise.all([ask(cover, 'ws', at(700)), ask(cover, 'ws', at(700))]);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.at).toEqual(at(700 - 3600));
    // The window ended at 600; a result scheduled at 100 and received at 700 was in it.
    expect(a?.(mon('m1'), at(100))).toBe(true);
    expect(b?.(mon('m1'), at(650))).toBe(false);
  });

  it('keeps at most maxWorkspaces, the longest unread going first', async () => {
    const { store, reads } = storeOf({});
    const cover = createResultCover(store, { maxWorkspaces: 2 });
    await cover('a', at(0));
    await cover('b', at(0));
    await cover('c', at(0));
    expect(reads).toHaveLength(3);
    expect(cover('c', at(1))).toBeNull();
    expect(cover('b', at(1))).toBeNull();
    expect(reads).toHaveLength(3);
    await cover('a', at(1));
    expect(reads).toHaveLength(4);
  });
});
