/**
 * AgentStore contract: agent tokens and sessions.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, T0 } from './fixtures.js';
import { contract } from './stores.js';

contract('AgentStore', (c) => {
  let store: Store;
  beforeEach(() => {
    ({ store } = c());
  });

  it('stores agent tokens by hash and revokes them', async () => {
    const t = {
      id: randomUUID(),
      region: 'eu-west',
      name: 'eu-1',
      token_hash: 'f'.repeat(64),
      created_at: T0,
      revoked_at: null,
    };
    await store.insertAgentToken(t);
    expect(await store.findAgentTokenByHash(t.token_hash)).toEqual(t);
    expect((await store.listAgentTokens()).map((x) => x.id)).toContain(t.id);
    expect(await store.revokeAgentToken(t.id, at(1))).toBe(true);
    expect(await store.revokeAgentToken(t.id, at(2))).toBe(false);
    expect((await store.findAgentTokenByHash(t.token_hash))?.revoked_at).toEqual(at(1));
  });

  it('the newest session of an instance wins; the old one can no longer touch', async () => {
    const base = {
      instance_id: `i-${randomUUID()}`,
      region: 'eu-west',
      hostname: 'h',
      agent_version: '1',
      started_at: T0,
      last_seen_at: T0,
      check_types: ['http', 'api', 'dns', 'tcp', 'domain'],
    };
    const s1 = await store.registerAgent({ ...base, session_id: 's1' });
    const s2 = await store.registerAgent({
      ...base,
      session_id: 's2',
      started_at: at(5),
      last_seen_at: at(5),
    });
    expect([s1.epoch, s2.epoch]).toEqual([1, 2]);
    expect(await store.touchAgentSession(base.instance_id, 's1', at(6))).toBe(false);
    const health = {
      assigned: 3,
      in_flight: 1,
      queue_depth: 0,
      buffered_results: 0,
      dropped_results: 0,
      schedule_lag_p99_ms: 4,
    };
    expect(await store.touchAgentSession(base.instance_id, 's2', at(7), { health, resultsAt: at(7) })).toBe(
      true,
    );
    expect(await store.getAgentSession(base.instance_id)).toMatchObject({
      session_id: 's2',
      epoch: 2,
      last_seen_at: at(7),
      last_result_at: at(7),
      health,
    });
    expect(await store.touchAgentSession(base.instance_id, 's2', at(8))).toBe(true);
    expect((await store.getAgentSession(base.instance_id))?.health).toEqual(health);
    expect((await store.listAgentSessions('eu-west')).map((a) => a.instance_id)).toContain(base.instance_id);
    expect((await store.listAgentSessions('us-east')).map((a) => a.instance_id)).not.toContain(
      base.instance_id,
    );
  });

  it('keeps the check types each session declared: a new Register replaces them, touches keep them', async () => {
    const base = {
      instance_id: `i-${randomUUID()}`,
      region: 'eu-west',
      hostname: 'h',
      agent_version: '2',
      started_at: T0,
      last_seen_at: T0,
    };
    await store.registerAgent({ ...base, session_id: 's1', check_types: ['http', 'ping'] });
    expect((await store.getAgentSession(base.instance_id))?.check_types).toEqual(['http', 'ping']);
    await store.registerAgent({ ...base, session_id: 's2', check_types: ['tcp'] });
    const health = {
      assigned: 0,
      in_flight: 0,
      queue_depth: 0,
      buffered_results: 0,
      dropped_results: 0,
      schedule_lag_p99_ms: 0,
    };
    expect(await store.touchAgentSession(base.instance_id, 's2', at(1), { health, resultsAt: at(1) })).toBe(
      true,
    );
    expect((await store.getAgentSession(base.instance_id))?.check_types).toEqual(['tcp']);
    const listed = (await store.listAgentSessions('eu-west')).find((a) => a.instance_id === base.instance_id);
    expect(listed?.check_types).toEqual(['tcp']);
  });
});
