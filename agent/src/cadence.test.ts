import { describe, expect, it } from 'vitest';
import { createCadence } from './cadence.js';

describe('cadence: how often the agent owes a result', () => {
  it('the shortest interval among the monitors, and since when the agent has had one that often', () => {
    let now = 1_000;
    const c = createCadence(() => now);
    expect(c.read()).toEqual({ shortestMs: 0, ageMs: 0 });

    c.change(undefined, 300_000); // its first monitor, every 5 min
    now = 61_000;
    expect(c.read()).toEqual({ shortestMs: 300_000, ageMs: 60_000 });

    c.change(undefined, 600_000); // a slower one changes nothing
    c.change(undefined, 60_000); // a faster one: owed from now
    now = 71_000;
    expect(c.read()).toEqual({ shortestMs: 60_000, ageMs: 10_000 });

    c.change(undefined, 60_000); // a second at the same interval keeps the moment
    c.change(60_000, undefined);
    now = 81_000;
    expect(c.read()).toEqual({ shortestMs: 60_000, ageMs: 20_000 });

    c.change(60_000, 900_000); // the last fast one slows down: the shortest is now the 5 min one
    expect(c.read()).toEqual({ shortestMs: 300_000, ageMs: 20_000 });

    for (const ms of [300_000, 600_000, 900_000]) c.change(ms, undefined);
    expect(c.read()).toEqual({ shortestMs: 0, ageMs: 0 });
    now = 90_000;
    c.change(undefined, 120_000); // monitors again after none: owed from now
    now = 95_000;
    expect(c.read()).toEqual({ shortestMs: 120_000, ageMs: 5_000 });
  });
});
