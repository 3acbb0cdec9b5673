import { ManualClock } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import { createRunNowHub, RUN_REQUEST_WAIT_MS, type RunNowRequest } from './run-now-hub.js';

const req = (
  monitorId: string,
  location = 'eu-west',
  requestId = `${monitorId}-${location}`,
): RunNowRequest => ({
  monitorId,
  location,
  reason: 'test',
  requestId,
});

describe('run-now hub', () => {
  it('queues a request on the stream of its region that holds the monitor, and wakes it', () => {
    const hub = createRunNowHub({ now: () => 0 });
    let woken = 0;
    const eu = hub.subscribe(
      'eu-west',
      (id) => id === 'm1',
      () => woken++,
    );
    const us = hub.subscribe(
      'us-east',
      () => true,
      () => {},
    );
    expect(hub.publish(req('m1'))).toBe(true);
    expect(woken).toBe(1);
    expect(eu.take()).toEqual([req('m1')]);
    expect(us.take()).toEqual([]);
    expect(hub.waiting()).toBe(0);
  });

  it('keeps a request no stream holds the monitor of until one of its region claims it', () => {
    const hub = createRunNowHub({ now: () => 0 });
    const eu = hub.subscribe(
      'eu-west',
      () => false,
      () => {},
    );
    const us = hub.subscribe(
      'us-east',
      () => false,
      () => {},
    );
    expect(hub.publish(req('new'))).toBe(false);
    expect(hub.publish(req('new', 'us-east'))).toBe(false);
    expect(hub.waiting()).toBe(2);
    // Another monitor, or the same one in another region, claims nothing.
    expect(eu.claim(['other'])).toEqual([]);
    expect(eu.claim(['new'])).toEqual([req('new')]);
    expect(eu.claim(['new'])).toEqual([]);
    expect(us.claim(['new'])).toEqual([req('new', 'us-east')]);
    expect(hub.waiting()).toBe(0);
  });

  it('a request waits at most RUN_REQUEST_WAIT_MS, and the oldest go first beyond the limit', () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    const hub = createRunNowHub({ now: () => clock.now().getTime(), waitingLimit: 2 });
    const eu = hub.subscribe(
      'eu-west',
      () => false,
      () => {},
    );
    hub.publish(req('a'));
    clock.advance(RUN_REQUEST_WAIT_MS - 1);
    expect(eu.claim(['a'])).toEqual([req('a')]);
    hub.publish(req('b'));
    clock.advance(RUN_REQUEST_WAIT_MS);
    expect(eu.claim(['b'])).toEqual([]);
    for (const id of ['c', 'd', 'e']) hub.publish(req(id));
    expect(hub.waiting()).toBe(2);
    expect(eu.claim(['c', 'd', 'e'])).toEqual([req('d'), req('e')]);
  });

  it('a stream that ends hands what it had not sent to another holder, or leaves it waiting', () => {
    const hub = createRunNowHub({ now: () => 0 });
    const first = hub.subscribe(
      'eu-west',
      (id) => id === 'm1' || id === 'm2',
      () => {},
    );
    const second = hub.subscribe(
      'eu-west',
      (id) => id === 'm2',
      () => {},
    );
    hub.publish(req('m1'));
    hub.publish(req('m2'));
    first.close();
    expect(second.take()).toEqual([req('m2')]);
    expect(second.claim(['m1'])).toEqual([req('m1')]);
  });
});
