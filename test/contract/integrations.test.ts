/**
 * IntegrationStore contract: inbound integrations and their service keys.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Integration } from '../../control-plane/src/domain/types.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

contract('IntegrationStore', (c) => {
  const ctx = () => ({ ...c(), alert: fixtures.alert, monitor: fixtures.monitor });

  it('stores integrations by key hash, pages them, updates and deletes within the workspace', async () => {
    const { store, ws } = ctx();
    const make = (i: number): Integration => ({
      id: randomUUID(),
      workspace_id: ws.workspace.id,
      name: `source ${i}`,
      kind: i % 2 ? 'alertmanager' : 'webhook',
      key_hash: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
      key_last_four: 'wxyz',
      escalation_policy_id: i === 0 ? ws.defaultPolicy.id : null,
      created_at: at(i),
      updated_at: at(i),
    });
    const made = [make(0), make(1), make(2)];
    for (const m of made) await store.insertIntegration(m);
    await expect(store.insertIntegration({ ...make(3), key_hash: made[0]!.key_hash })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await store.findIntegrationByKeyHash(made[1]!.key_hash)).toEqual(made[1]);
    expect(await store.getIntegration(ws.workspace.id, made[0]!.id)).toEqual(made[0]);
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getIntegration(other.workspace.id, made[0]!.id)).toBeNull();
    const p1 = await store.listIntegrations(ws.workspace.id, { limit: 2 });
    const p2 = await store.listIntegrations(ws.workspace.id, { limit: 2, cursor: p1.next_cursor! });
    expect([...p1.data, ...p2.data].map((i) => i.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect(p2.next_cursor).toBeNull();
    const renamed = { ...made[0]!, name: 'renamed', key_hash: 'a'.repeat(64), updated_at: at(9) };
    expect(await store.updateIntegration(renamed)).toBe(true);
    expect(await store.updateIntegration({ ...renamed, workspace_id: other.workspace.id })).toBe(false);
    expect(await store.findIntegrationByKeyHash('a'.repeat(64))).toEqual(renamed);
    expect(await store.findIntegrationByKeyHash(made[0]!.key_hash)).toBeNull();
    expect(await store.deleteIntegration(other.workspace.id, made[0]!.id)).toBe(false);
    expect(await store.deleteIntegration(ws.workspace.id, made[0]!.id)).toBe(true);
    expect(await store.getIntegration(ws.workspace.id, made[0]!.id)).toBeNull();
  });
});
