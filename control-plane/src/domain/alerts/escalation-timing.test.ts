import { describe, expect, it } from 'vitest';
import type { EscalationPolicy } from '../types.js';
import { afterStep, idempotencyKey, startEscalation } from './escalation-timing.js';

const T0 = new Date('2026-06-01T12:00:00Z');
const min = (n: number) => new Date(T0.getTime() + n * 60_000);
const policy = (waits: number[], repeat = 0): EscalationPolicy => ({
  id: 'p1',
  workspace_id: 'w',
  name: 'p',
  is_default: false,
  steps: waits.map((w) => ({ wait_minutes: w, notify_user_ids: ['u'], notify_channel_ids: [] })),
  support_hours: null,
  repeat,
  created_at: T0,
  updated_at: T0,
});

/** Runs every step on time and lists when each (round, step) ran. */
const schedule = (p: EscalationPolicy) => {
  const out: [number, number, number][] = [];
  let pos = startEscalation(p, null, T0);
  while (pos.escalation_due_at && pos.escalation) {
    const at = pos.escalation_due_at;
    out.push([pos.escalation.round, pos.escalation.step, (at.getTime() - T0.getTime()) / 60_000]);
    pos = afterStep(p, pos.escalation, at);
    if (out.length > 50) throw new Error('runaway');
  }
  expect(pos.escalation?.finished).toBe(true);
  return out;
};

describe('escalation timing', () => {
  it('waits count from the previous step; the first from the raise', () => {
    expect(schedule(policy([0, 5, 10]))).toEqual([
      [0, 0, 0],
      [0, 1, 5],
      [0, 2, 15],
    ]);
  });

  it('repeats start over at the first step, `repeat` more times', () => {
    expect(schedule(policy([2, 3], 2))).toEqual([
      [0, 0, 2],
      [0, 1, 5],
      [1, 0, 7],
      [1, 1, 10],
      [2, 0, 12],
      [2, 1, 15],
    ]);
  });

  it('a repeat after an immediate first step waits as long as the last step did', () => {
    expect(schedule(policy([0, 15], 1))).toEqual([
      [0, 0, 0],
      [0, 1, 15],
      [1, 0, 30],
      [1, 1, 45],
    ]);
    expect(schedule(policy([0, 5, 10], 1)).map(([, , t]) => t)).toEqual([0, 5, 15, 25, 30, 40]);
  });

  it('a late step moves the following ones: waits count from when it actually ran', () => {
    const p = policy([0, 5]);
    const first = startEscalation(p, null, T0);
    const next = afterStep(p, first.escalation!, min(30));
    expect(next.escalation_due_at).toEqual(min(35));
    expect(next.escalation).toMatchObject({ step: 1, round: 0, claim: null, finished: false });
  });

  it('a maintenance window or no policy: nothing is scheduled', () => {
    const suppressed = startEscalation(policy([0]), { id: 'mw', name: 'deploy' }, T0);
    expect(suppressed.escalation_due_at).toBeNull();
    expect(suppressed.escalation?.suppressed_by).toEqual({ window_id: 'mw', name: 'deploy' });
    expect(startEscalation(null, null, T0)).toEqual({ escalation: null, escalation_due_at: null });
  });

  it('a policy edited to fewer steps meanwhile ends the round instead of failing', () => {
    const p = policy([0]);
    const next = afterStep(p, { ...startEscalation(p, null, T0).escalation!, step: 3 }, min(1));
    expect(next.escalation?.finished).toBe(true);
  });

  it('idempotency keys name the alert, policy, round, step and target', () => {
    expect(idempotencyKey({ id: 'a' }, { policy_id: 'p', round: 1, step: 2 }, 'user:u')).toBe(
      'a:p:1:2:user:u',
    );
  });
});
