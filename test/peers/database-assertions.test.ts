import type { Assertion } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckDeadline } from '../../agent/src/deadline.js';
import type { ProbeSpec } from '../../agent/src/probe-port.js';
import { createProbers } from '../../agent/src/probers/index.js';
import { type DatabaseServer, startRedis } from './support/databases.js';

/**
 * The agent's prober table runs a database check's assertions on the query's first value (its
 * response text), here against Debian's redis-server started by the test (support/databases.ts).
 */
let redis: DatabaseServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const onText = (comparison: Assertion['comparison'], target: string): Assertion => ({
  source: 'text_body',
  property: '',
  comparison,
  target,
});
const spec = (query: string, assertions: Assertion[]): ProbeSpec<'redis'> => ({
  monitor_id: 'm',
  monitor_type: 'redis',
  url: redis.url,
  timeout_ms: 10_000,
  settings: { query, assertions },
});

describe('assertions on a database check', () => {
  const probers = createProbers();
  it('reads the first value as the response text', async () => {
    expect(await probers.run(spec('PING', [onText('equals', 'PONG')]), new CheckDeadline())).toMatchObject({
      ok: true,
      error: null,
    });
    expect(await probers.run(spec('PING', [onText('matches', '^NOPE$')]), new CheckDeadline())).toMatchObject(
      {
        ok: false,
        error: { kind: 'assertion_failed', message: 'text_body was "PONG", expected matches "^NOPE$"' },
      },
    );
  });
});
