import { describe, expect, it } from 'vitest';
import { manualTimers } from './manual-timers.js';
import { nextRunAt } from './phase.js';
import { createScheduler } from './scheduler.js';

const T0 = 1_800_000_000_000;

/** A scheduler in region eu-west on manual timers whose runs end at once, each recorded with its slot. */
const recording = () => {
  const t = manualTimers(T0);
  const runs: [string, number][] = [];
  const s = createScheduler({
    region: 'eu-west',
    timers: t.timers,
    dispatch: (run, at) => {
      runs.push([run.id, at]);
      run.done();
    },
  });
  return { t, s, runs };
};

describe('scheduler', () => {
  it('runs each monitor on its phase, once per interval, with one timer', async () => {
    const { t, s, runs } = recording();
    for (let i = 0; i < 50; i++) s.upsert(`m${i}`, 60_000, null);
    expect(t.pendingCount()).toBe(1);
    await t.advanceTo(T0 + 180_000);
    expect(runs.length).toBe(150);
    for (let i = 0; i < 50; i++) {
      const mine = runs.filter(([id]) => id === `m${i}`).map(([, at]) => at);
      expect(mine).toEqual(
        [1, 2, 3].map((k) => nextRunAt(`m${i}`, 'eu-west', 60_000, T0) + (k - 1) * 60_000),
      );
    }
  });

  it('skips a slot while the previous run of the monitor is still going', async () => {
    const t = manualTimers(T0);
    let release: () => void = () => {};
    const runs: number[] = [];
    const s = createScheduler({
      region: 'eu-west',
      timers: t.timers,
      dispatch: (run, at) => {
        runs.push(at);
        release = () => run.done();
      },
    });
    s.upsert('slow', 10_000, null);
    await t.advanceTo(T0 + 35_000);
    expect(runs).toHaveLength(1);
    expect(s.skipped).toBe(2);
    release();
    await Promise.resolve();
    await t.advanceTo(T0 + 45_000);
    expect(runs).toHaveLength(2);
  });

  it('a restarted scheduler keeps the same slots; removal stops runs', async () => {
    const t = manualTimers(T0);
    const a: number[] = [];
    const s1 = createScheduler({
      region: 'r',
      timers: t.timers,
      dispatch: (run, at) => {
        a.push(at);
        run.done();
      },
    });
    s1.upsert('m', 30_000, null);
    await t.advanceTo(T0 + 61_000);
    s1.stop();
    const b: number[] = [];
    const s2 = createScheduler({
      region: 'r',
      timers: t.timers,
      dispatch: (run, at) => {
        b.push(at);
        run.done();
      },
    });
    s2.upsert('m', 30_000, null);
    await t.advanceTo(T0 + 125_000);
    expect(b[0]! - a[a.length - 1]!).toBe(30_000);
    s2.remove('m');
    const before = b.length;
    await t.advanceTo(T0 + 300_000);
    expect(b.length).toBe(before);
  });

  it('a monitor updated while its run is going runs again once that run is over', async () => {
    const t = manualTimers(T0);
    let release: () => void = () => {};
    const runs: number[] = [];
    const s = createScheduler({
      region: 'eu-west',
      timers: t.timers,
      dispatch: (run, at) => {
        runs.push(at);
        // the first run is held until released; later ones end at once
        if (runs.length === 1) release = () => run.done();
        else run.done();
      },
    });
    s.upsert('m', 10_000, null);
    await t.advanceTo(T0 + 10_000);
    expect(runs).toHaveLength(1);
    s.upsert('m', 10_000, null); // a new version of the monitor arrives during its run
    release();
    await Promise.resolve();
    await t.advanceTo(T0 + 40_000);
    expect(runs).toHaveLength(4);
    expect(s.skipped).toBe(0);
  });

  it('wakes once per 10 ms tick, however many slots fall in it: each run starts on the first tick at or after its slot', async () => {
    const t = manualTimers(T0);
    let wakeups = 0;
    const timers = {
      ...t.timers,
      set: (fn: () => void, ms: number) =>
        t.timers.set(() => {
          wakeups++;
          fn();
        }, ms),
    };
    const starts: [slot: number, startedAt: number][] = [];
    const s = createScheduler({
      region: 'eu-west',
      timers,
      dispatch: (run, at) => {
        starts.push([at, timers.now()]);
        run.done();
      },
    });
    // 20,000 monitors at 60 s: ~17,000 distinct milliseconds hold a slot, 6,000 ticks of 10 ms
    for (let i = 0; i < 20_000; i++) s.upsert(`m${i}`, 60_000, null);
    await t.advanceTo(T0 + 60_000);
    expect(starts).toHaveLength(20_000);
    expect(new Set(starts.map(([slot]) => slot)).size).toBeGreaterThan(15_000);
    expect(wakeups).toBeLessThanOrEqual(6_000);
    for (const [slot, startedAt] of starts) {
      expect(startedAt % 10).toBe(0);
      expect(startedAt - slot).toBeGreaterThanOrEqual(0);
      expect(startedAt - slot).toBeLessThan(10);
    }
  });

  it('after a stall of more than an interval, runs each monitor once and skips the slot it missed', () => {
    // A clock that moves only when told, and a timer that fires only when told: the process was frozen.
    let now = T0;
    let due: (() => void) | null = null;
    const timers = {
      now: () => now,
      set: (fn: () => void) => {
        due = fn;
        return 1;
      },
      clear: () => {
        due = null;
      },
    };
    const runs: [string, number][] = [];
    const s = createScheduler({ region: 'r', timers, dispatch: (run, at) => runs.push([run.id, at]) });
    s.upsert('a', 10_000, null);
    s.upsert('b', 10_000, null);
    now = T0 + 25_000; // 2.5 intervals later
    (due as (() => void) | null)?.();
    expect(runs.map(([id]) => id).sort()).toEqual(['a', 'b']);
    for (const [id, at] of runs) expect(at).toBe(nextRunAt(id, 'r', 10_000, T0));
    expect(s.skipped).toBe(2);
  });

  it('a monitor updated many times runs once per slot, wherever its updates moved it', async () => {
    const { t, s, runs } = recording();
    s.upsert('m', 60_000, null);
    s.upsert('m', 60_000, null); // the same slot again
    s.upsert('m', 30_000, null); // another slot
    s.upsert('m', 60_000, null); // back to the first slot
    s.upsert('gone', 60_000, null);
    s.remove('gone');
    s.upsert('back', 60_000, null);
    s.remove('back');
    s.upsert('back', 60_000, null);
    await t.advanceTo(T0 + 120_000);
    const at = (id: string) => runs.filter(([r]) => r === id).map(([, a]) => a);
    const first = nextRunAt('m', 'eu-west', 60_000, T0);
    expect(at('m')).toEqual([first, first + 60_000]);
    expect(at('gone')).toEqual([]);
    const back = nextRunAt('back', 'eu-west', 60_000, T0);
    expect(at('back')).toEqual([back, back + 60_000]);
  });

  it('holds no timer once its monitors are removed and their ticks have passed', async () => {
    const t = manualTimers(T0);
    const s = createScheduler({ region: 'r', timers: t.timers, dispatch: (run) => run.done() });
    for (let i = 0; i < 100; i++) s.upsert(`m${i}`, 60_000, null);
    await t.advanceTo(T0 + 30_000);
    for (let i = 0; i < 100; i++) s.remove(`m${i}`);
    await t.advanceTo(T0 + 120_000);
    expect(t.pendingCount()).toBe(0);
    expect(s.size).toBe(0);
  });
});

describe('scheduler: retries after a failure', () => {
  const RETRY = { retryMs: 15_000, threshold: 3 };
  /** A scheduler whose runs end at once with the outcome `ok()` says, each recorded with its slot. */
  const judged = (ok: (n: number) => boolean) => {
    const t = manualTimers(T0);
    const runs: number[] = [];
    const s = createScheduler({
      region: 'eu-west',
      timers: t.timers,
      dispatch: (run, at) => {
        runs.push(at);
        run.done();
        s.outcome(run.id, ok(runs.length));
      },
    });
    return { t, s, runs };
  };
  const first = nextRunAt('m', 'eu-west', 60_000, T0);
  /** When a run due at `at` starts, and so ends here: the scheduler wakes on 10 ms ticks. */
  const ran = Math.ceil(first / 10) * 10;

  it('re-checks at the retry interval until the threshold is reached, then keeps its phase', async () => {
    const { t, s, runs } = judged(() => false);
    s.upsert('m', 60_000, null, RETRY);
    await t.advanceTo(first + 130_000);
    // The first failure and two retries make three in a row; then the interval, on the phase.
    expect(runs).toEqual([first, ran + 15_000, ran + 30_000, first + 60_000, first + 120_000]);
  });

  it('a success ends the retries: the next run is at the next phase slot', async () => {
    const { t, s, runs } = judged((n) => n !== 1);
    s.upsert('m', 60_000, null, RETRY);
    await t.advanceTo(first + 130_000);
    expect(runs).toEqual([first, ran + 15_000, first + 60_000, first + 120_000]);
  });

  it('a run asked for counts: its failure starts the retries, a success cancels a pending retry', async () => {
    const { t, s, runs } = judged(() => false);
    s.upsert('m', 60_000, null, RETRY);
    // A first check asked for at once (outside the schedule) fails: a retry 15 s later, not the slot.
    const asked = ran - 40_000;
    await t.advanceTo(asked);
    s.outcome('m', false);
    await t.advanceTo(asked + 15_000);
    expect(runs).toEqual([asked + 15_000]);
    // The retry failed too (two in a row); a confirmation run succeeds before the next retry.
    await t.advanceTo(asked + 20_000);
    s.outcome('m', true);
    await t.advanceTo(first + 1_000);
    expect(runs).toEqual([asked + 15_000, first]);
  });

  it('never retries after a slot later than its next one, nor without a retry interval', async () => {
    const late = judged(() => false);
    // A retry interval as long as the interval: the phase comes first.
    late.s.upsert('m', 60_000, null, { retryMs: 60_000, threshold: 3 });
    await late.t.advanceTo(first + 130_000);
    expect(late.runs).toEqual([first, first + 60_000, first + 120_000]);
    const none = judged(() => false);
    none.s.upsert('m', 60_000, null);
    await none.t.advanceTo(first + 130_000);
    expect(none.runs).toEqual([first, first + 60_000, first + 120_000]);
  });

  it('a new version ends a pending retry; the failures in a row still count toward the threshold', async () => {
    const { t, s, runs } = judged(() => false);
    s.upsert('m', 60_000, null, RETRY);
    await t.advanceTo(first + 1_000);
    s.upsert('m', 60_000, null, RETRY);
    await t.advanceTo(first + 61_000);
    // Failed at the slot, then again at the next one (two in a row): one retry, then the threshold.
    expect(runs).toEqual([first, first + 60_000]);
    await t.advanceTo(first + 130_000);
    expect(runs).toEqual([first, first + 60_000, ran + 75_000, first + 120_000]);
  });
});
