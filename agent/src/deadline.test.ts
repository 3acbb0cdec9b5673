import { describe, expect, it } from 'vitest';
import { CheckDeadline } from './deadline.js';

describe('a check deadline', () => {
  const timeout = () => new DOMException('timed out after 5 ms', 'TimeoutError');

  it('tells its one listener once, with its reason, and a removed listener not at all', () => {
    const d = new CheckDeadline();
    const heard: unknown[] = [];
    d.onAbort((r) => heard.push(r));
    const why = timeout();
    d.abort(why);
    d.abort(timeout()); // a second end changes nothing
    expect(heard).toEqual([why]);
    expect(d.aborted).toBe(true);
    expect(d.reason).toBe(why);

    const quiet = new CheckDeadline();
    const none: unknown[] = [];
    quiet.onAbort((r) => none.push(r));
    quiet.onAbort(null);
    quiet.abort(timeout());
    expect(none).toEqual([]);

    // A listener added after the end is told at once.
    const late: unknown[] = [];
    d.onAbort((r) => late.push(r));
    expect(late).toEqual([why]);
  });

  it('as an AbortSignal: one made before the end aborts with it, one made after is already aborted', () => {
    const early = new CheckDeadline();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    const why = timeout();
    early.abort(why);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(why);

    const late = new CheckDeadline();
    late.abort(why);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(why);
  });
});
