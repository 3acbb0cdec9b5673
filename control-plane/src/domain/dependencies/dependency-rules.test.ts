import { describe, expect, it } from 'vitest';
import type { AlertHold } from '../alerts/alert-hold-store.js';
import { decideHold, HOLD_GRACE_MS, HOLD_POLL_MS, type SourceNow } from './dependency-rules.js';

const T0 = Date.parse('2026-12-07T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

const hold = (over: Partial<AlertHold> = {}): AlertHold => ({
  workspace_id: 'ws',
  source_type: 'monitor',
  source_id: 'child',
  state: 'held',
  suppressed_by: null,
  since: at(0),
  hold_until: null,
  due_at: at(0),
  version: 1,
  ...over,
});
const src = (id: string, over: Partial<SourceNow> = {}): SourceNow => ({
  id,
  status: 'up',
  checked_at: at(-60),
  failing: false,
  settle_ms: 90_000,
  ...over,
});
const child = src('child', { status: 'down', checked_at: at(0) });

describe('decideHold', () => {
  it('drops the hold of a source that is no longer down, or gone: nothing to raise or resolve', () => {
    expect(decideHold(hold(), src('child'), [src('p')], at(1))).toEqual({ action: 'drop' });
    expect(decideHold(hold(), null, [src('p')], at(1))).toEqual({ action: 'drop' });
  });

  it('suppresses while a direct dependency is down, by the first one down', () => {
    const d = decideHold(
      hold(),
      child,
      [src('a'), src('b', { status: 'down' }), src('c', { status: 'down' })],
      at(1),
    );
    expect(d).toMatchObject({
      action: 'suppress',
      by: 'b',
      next: { state: 'suppressed', suppressed_by: 'b', version: 2 },
    });
  });

  it('the storm race: the dependent went down before its parent was checked, so it waits', () => {
    // The parent's last check is older than the dependent's failure: its verdict is still to come.
    const d = decideHold(hold(), child, [src('p', { checked_at: at(-30) })], at(1));
    expect(d).toMatchObject({ action: 'hold', next: { due_at: at(1 + HOLD_POLL_MS / 1000) } });
    expect(d.action === 'hold' && d.next.hold_until).toEqual(at(90 + HOLD_GRACE_MS / 1000));
    // A parent checked since but failing on its way down (below its threshold) is waited for too.
    const failing = decideHold(hold(), child, [src('p', { checked_at: at(2), failing: true })], at(3));
    expect(failing.action).toBe('hold');
    // Then the parent's verdict arrives: down, and the dependent is suppressed.
    const later = decideHold(
      hold({ version: 2 }),
      child,
      [src('p', { status: 'down', checked_at: at(4) })],
      at(5),
    );
    expect(later).toMatchObject({ action: 'suppress', by: 'p' });
  });

  it('raises once every dependency was checked since and is up', () => {
    expect(decideHold(hold(), child, [src('p', { checked_at: at(2) })], at(3))).toEqual({ action: 'raise' });
  });

  it('raises when the wait is over, whatever the dependencies say', () => {
    const h = hold({ hold_until: at(105), version: 3 });
    expect(decideHold(h, child, [src('p', { checked_at: at(-30) })], at(104)).action).toBe('hold');
    expect(decideHold(h, child, [src('p', { checked_at: at(-30) })], at(105))).toEqual({ action: 'raise' });
  });

  it('a paused dependency or one in maintenance is not waited for', () => {
    expect(decideHold(hold(), child, [src('p', { status: 'paused', checked_at: null })], at(1))).toEqual({
      action: 'raise',
    });
  });

  it('after the dependency recovers, the dependent raises only once its own next check still fails', () => {
    const suppressed = hold({ state: 'suppressed', suppressed_by: 'p', version: 4 });
    const released = decideHold(suppressed, child, [src('p', { checked_at: at(100) })], at(100));
    expect(released).toMatchObject({
      action: 'hold',
      released: true,
      next: { state: 'released', since: at(100) },
    });
    const r = released.action === 'hold' ? released.next : suppressed;
    // Not checked since: it waits.
    expect(
      decideHold(
        r,
        src('child', { status: 'down', checked_at: at(90) }),
        [src('p', { checked_at: at(100) })],
        at(102),
      ).action,
    ).toBe('hold');
    // Checked since and still down: it raises.
    expect(
      decideHold(
        r,
        src('child', { status: 'down', checked_at: at(110) }),
        [src('p', { checked_at: at(100) })],
        at(111),
      ),
    ).toEqual({ action: 'raise' });
    // Recovered instead: no alert.
    expect(decideHold(r, src('child', { status: 'up', checked_at: at(110) }), [], at(111))).toEqual({
      action: 'drop',
    });
  });

  it('a heartbeat (always current) still down when its dependency recovers raises at once', () => {
    const suppressed = hold({
      source_type: 'heartbeat',
      state: 'suppressed',
      suppressed_by: 'p',
      version: 4,
    });
    const hb = src('child', { status: 'down', checked_at: at(100), current: true });
    expect(decideHold(suppressed, hb, [src('p', { checked_at: at(100) })], at(100))).toEqual({
      action: 'raise',
    });
  });
});
