import { describe, expect, it } from 'vitest';
import { nextRunAt, phaseOf } from './phase.js';

describe('wall-clock phase', () => {
  it('is the same for the same monitor and region, different across monitors', () => {
    expect(phaseOf('m1', 'eu-west', 60_000)).toBe(phaseOf('m1', 'eu-west', 60_000));
    const phases = new Set(Array.from({ length: 100 }, (_, i) => phaseOf(`m${i}`, 'eu-west', 60_000)));
    expect(phases.size).toBeGreaterThan(95);
  });

  it('next run is strictly later, on the phase, and at most one interval away', () => {
    const p = phaseOf('m1', 'eu-west', 60_000);
    for (const now of [0, 1, p, p + 1, 1_700_000_000_123, 1_700_000_059_999]) {
      const next = nextRunAt('m1', 'eu-west', 60_000, now);
      expect(next).toBeGreaterThan(now);
      expect(next - now).toBeLessThanOrEqual(60_000);
      expect(((next % 60_000) + 60_000) % 60_000).toBe(p);
    }
  });

  it('a restart computes the same schedule (no double run, no skipped run)', () => {
    const a = nextRunAt('m7', 'us-east', 30_000, 1_000_000);
    const b = nextRunAt('m7', 'us-east', 30_000, a - 1);
    expect(b).toBe(a);
    expect(nextRunAt('m7', 'us-east', 30_000, a)).toBe(a + 30_000);
  });
});
