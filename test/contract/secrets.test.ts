/**
 * SecretStore contract: one value per (workspace, name), replaced in place (created_at kept), read
 * one, some or all of a workspace, deleted; another workspace's names are its own.
 */
import { beforeEach, expect, it } from 'vitest';
import type { WorkspaceSecret } from '../../control-plane/src/domain/secrets/secret-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

contract('SecretStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const secret = (name: string, more: Partial<WorkspaceSecret> = {}): WorkspaceSecret => ({
    workspace_id: ws.workspace.id,
    name,
    sealed_value: `sealed:${name}`,
    hint: '',
    created_at: at(1),
    updated_at: at(1),
    updated_by: ws.admin.id,
    ...more,
  });

  it('creates, then replaces in place keeping when it was made', async () => {
    expect(await store.putSecret(secret('PAY_TOKEN', { hint: 'abcd' }))).toBe(true);
    expect(await store.getSecret(ws.workspace.id, 'PAY_TOKEN')).toEqual(
      secret('PAY_TOKEN', { hint: 'abcd' }),
    );
    const replaced = secret('PAY_TOKEN', {
      sealed_value: 'sealed:new',
      hint: '',
      created_at: at(9),
      updated_at: at(9),
      updated_by: null,
    });
    expect(await store.putSecret(replaced)).toBe(false);
    expect(await store.getSecret(ws.workspace.id, 'PAY_TOKEN')).toEqual({ ...replaced, created_at: at(1) });
    expect(await store.getSecret(ws.workspace.id, 'OTHER')).toBeNull();
  });

  it('lists by name, reads the named ones that exist, and keeps other workspaces out', async () => {
    for (const name of ['B', 'A', 'C']) await store.putSecret(secret(name));
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    await store.putSecret(secret('A', { workspace_id: other.workspace.id, sealed_value: 'theirs' }));
    await store.putSecret(secret('D', { workspace_id: other.workspace.id }));
    expect((await store.listSecrets(ws.workspace.id)).map((s) => s.name)).toEqual(['A', 'B', 'C']);
    expect((await store.getSecrets(ws.workspace.id, ['C', 'A', 'D', 'Z'])).map((s) => s.name)).toEqual([
      'A',
      'C',
    ]);
    expect(await store.getSecrets(ws.workspace.id, [])).toEqual([]);
    expect((await store.getSecret(ws.workspace.id, 'A'))?.sealed_value).toBe('sealed:A');
    expect((await store.getSecret(other.workspace.id, 'A'))?.sealed_value).toBe('theirs');
    expect(await store.getSecret(other.workspace.id, 'B')).toBeNull();
  });

  it('deletes one name of one workspace only', async () => {
    await store.putSecret(secret('A'));
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    await store.putSecret(secret('A', { workspace_id: other.workspace.id }));
    expect(await store.deleteSecret(ws.workspace.id, 'A')).toBe(true);
    expect(await store.deleteSecret(ws.workspace.id, 'A')).toBe(false);
    expect(await store.getSecret(ws.workspace.id, 'A')).toBeNull();
    expect(await store.getSecret(other.workspace.id, 'A')).not.toBeNull();
    // A deleted name can be set again, as new.
    expect(await store.putSecret(secret('A', { created_at: at(5), updated_at: at(5) }))).toBe(true);
    expect((await store.getSecret(ws.workspace.id, 'A'))?.created_at).toEqual(at(5));
  });
});
