/**
 * The store contract: every scenario runs against every adapter (see sqlite-store.test.ts and
 * mongo-store.test.ts). An adapter is correct when this passes; nothing else tests adapters.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Alert,
  ApiKey,
  CheckResultRecord,
  EscalationPolicy,
  Heartbeat,
  Monitor,
  MonitorLocationState,
  Ping,
  User,
  Workspace,
} from '../domain/types.js';
import { inboundScenarios } from './contract-inbound.js';
import { routingScenarios } from './contract-routing.js';
import { sessionScenarios } from './contract-sessions.js';
import { type Store, StoreMissingError } from './port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

export const fixtures = {
  workspace(sub = `ws-${randomUUID().slice(0, 8)}`): {
    workspace: Workspace;
    admin: User;
    defaultPolicy: EscalationPolicy;
  } {
    const id = randomUUID();
    return {
      workspace: { id, subdomain: sub, name: sub, plan: 'team', created_at: T0 },
      admin: {
        id: randomUUID(),
        workspace_id: id,
        email: `admin@${sub}.test`,
        role: 'admin',
        password_hash: null,
        created_at: T0,
      },
      defaultPolicy: {
        id: randomUUID(),
        workspace_id: id,
        name: 'Default',
        is_default: true,
        steps: [{ wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [] }],
        repeat: 0,
        created_at: T0,
        updated_at: T0,
      },
    };
  },
  apiKey(ws: string, user: string, over: Partial<ApiKey> = {}): ApiKey {
    return {
      id: randomUUID(),
      workspace_id: ws,
      user_id: user,
      kind: 'named',
      name: 'ci',
      key_hash: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
      last_four: 'abcd',
      created_at: T0,
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      last_used_from: null,
      ...over,
    };
  },
  monitor(ws: string, policy: string, over: Partial<Monitor> = {}): Monitor {
    return {
      id: randomUUID(),
      workspace_id: ws,
      display_name: 'Home page',
      monitor_type: 'http',
      url: 'https://example.com/',
      http_method: 'GET',
      check_interval_seconds: 60,
      timeout_seconds: 10,
      expected_status_code: 200,
      required_keyword: null,
      auth: { type: 'basic', username: 'u', password: 'p' },
      port: null,
      request_headers: { 'x-a': 'b' },
      request_body: null,
      follow_redirects: true,
      ssl_cert_monitoring: true,
      ssl_cert_expiry_alert_days: 14,
      domain_expiry_alert_days: 30,
      response_time_threshold_ms: null,
      failure_threshold: 3,
      escalation_policy_id: policy,
      check_locations: ['eu-west', 'us-east'],
      dns_record_type: null,
      dns_expected_values: [],
      dns_resolver: null,
      paused: false,
      created_at: T0,
      updated_at: T0,
      version: 1,
      ...over,
    };
  },
  heartbeat(ws: string, policy: string, over: Partial<Heartbeat> = {}): Heartbeat {
    return {
      id: randomUUID(),
      workspace_id: ws,
      display_name: 'nightly backup',
      period_seconds: 86400,
      grace_seconds: 3600,
      state: 'new',
      last_ping_at: null,
      escalation_policy_id: policy,
      paused: false,
      created_at: T0,
      updated_at: T0,
      version: 1,
      due_at: null,
      started_at: null,
      start_rid: null,
      rearmed_at: null,
      alert_id: null,
      state_version: 0,
      ...over,
    };
  },
  alert(ws: string, over: Partial<Alert> = {}): Alert {
    return {
      id: randomUUID(),
      workspace_id: ws,
      source_type: 'integration',
      source_id: 'webhook-1',
      cause: 'webhook',
      dedup_key: 'k1',
      title: 'Disk full',
      description: null,
      severity: 'critical',
      status: 'open',
      escalation_policy_id: null,
      created_at: T0,
      updated_at: T0,
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      resolved_by: null,
      escalation: null,
      escalation_due_at: null,
      ...over,
    };
  },
};

const result = (ws: string, monitor: string, over: Partial<CheckResultRecord> = {}): CheckResultRecord => ({
  id: randomUUID(),
  workspace_id: ws,
  monitor_id: monitor,
  monitor_version: 1,
  location: 'eu-west',
  instance_id: 'agent-1',
  scheduled_at: T0,
  started_at: T0,
  received_at: T0,
  ok: true,
  error_kind: null,
  error_message: null,
  response_time_ms: 120,
  status_code: 200,
  timings: { dns_ms: 1, connect_ms: 2, tls_ms: 3, first_byte_ms: 50, total_ms: 120 },
  tls_valid_to: at(86400 * 30),
  domain_expires_at: null,
  dns_records: [],
  run_now_request_id: null,
  ...over,
});

/** Opens one named store (a file, a database) more than once, for the scenarios about opening. */
export interface NamedStores {
  /** The store named `key`; `init` creates it unless `mustExist`. */
  at(key: string, opts: { mustExist?: boolean }): Store;
  /** Removes what `at(key)` made. */
  drop(key: string): Promise<void>;
}

export const storeContract = (name: string, open: () => Promise<Store>, named?: NamedStores) => {
  describe(`Store contract: ${name}`, () => {
    if (named) {
      it('opened with mustExist, a store never made is refused and nothing is created; once made, it opens', async () => {
        const key = `must_exist_${randomUUID().slice(0, 8)}`;
        /** Opens (the factory or init may refuse) and closes again. */
        const openAndClose = async (opts: { mustExist?: boolean }) => {
          const s = named.at(key, opts);
          try {
            await s.init();
            return s;
          } finally {
            await s.close();
          }
        };
        try {
          const refused = await openAndClose({ mustExist: true }).catch((e: unknown) => e);
          expect(refused).toBeInstanceOf(StoreMissingError);
          expect((refused as StoreMissingError).where).toContain(key);
          // Refusing made nothing: asked again, it is still missing.
          await expect(openAndClose({ mustExist: true })).rejects.toBeInstanceOf(StoreMissingError);
          await openAndClose({});
          await expect(openAndClose({ mustExist: true })).resolves.toBeDefined();
        } finally {
          await named.drop(key);
        }
      });
    }

    let store: Store;
    let ws: ReturnType<typeof fixtures.workspace>;

    beforeEach(async () => {
      store = await open();
      await store.init();
      ws = fixtures.workspace();
      await store.createWorkspace(ws);
    });
    afterEach(async () => {
      await store.close();
    });

    describe('workspaces and users', () => {
      it('creates a workspace with its admin and default policy, found by subdomain', async () => {
        expect(await store.getWorkspaceBySubdomain(ws.workspace.subdomain)).toEqual(ws.workspace);
        expect(await store.getWorkspace(ws.workspace.id)).toEqual(ws.workspace);
        expect(await store.getUserByEmail(ws.workspace.id, ws.admin.email)).toEqual(ws.admin);
        expect(await store.getDefaultEscalationPolicy(ws.workspace.id)).toEqual(ws.defaultPolicy);
        expect(await store.getEscalationPolicy(ws.workspace.id, ws.defaultPolicy.id)).toEqual(
          ws.defaultPolicy,
        );
        expect((await store.listWorkspaces()).map((w) => w.id)).toContain(ws.workspace.id);
      });

      it('refuses a taken subdomain and writes nothing of the second workspace', async () => {
        const dup = fixtures.workspace(ws.workspace.subdomain);
        await expect(store.createWorkspace(dup)).rejects.toMatchObject({ code: 'conflict' });
        expect(await store.getWorkspace(dup.workspace.id)).toBeNull();
        expect(await store.getUser(dup.workspace.id, dup.admin.id)).toBeNull();
        expect(await store.getDefaultEscalationPolicy(dup.workspace.id)).toBeNull();
      });

      it('refuses a second user with the same email in a workspace, allows it in another', async () => {
        const u = { ...ws.admin, id: randomUUID(), role: 'viewer' as const };
        await expect(store.createUser(u)).rejects.toMatchObject({ code: 'conflict' });
        const other = fixtures.workspace();
        await store.createWorkspace(other);
        await store.createUser({ ...u, workspace_id: other.workspace.id });
        expect((await store.listUsers(other.workspace.id, { limit: 10 })).data.length).toBe(2);
        expect(await store.getUser(ws.workspace.id, u.id)).toBeNull();
      });

      it('pages users newest first, ties broken by id; every user once', async () => {
        const more: User[] = [1, 2, 2, 3].map((s, i) => ({
          ...ws.admin,
          id: randomUUID(),
          email: `u${i}@page.test`,
          role: 'viewer',
          created_at: at(s),
        }));
        for (const u of more) await store.createUser(u);
        const seen: User[] = [];
        let cursor: string | undefined;
        do {
          const page = await store.listUsers(ws.workspace.id, { limit: 2, cursor });
          expect(page.data.length).toBeLessThanOrEqual(2);
          seen.push(...page.data);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(seen.map((u) => u.id)).toEqual(
          [...more, ws.admin]
            .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
            .map((u) => u.id),
        );
        expect((await store.listUsers(randomUUID(), { limit: 10 })).data).toEqual([]);
      });

      it('changes a user’s role, only in its own workspace', async () => {
        const other = fixtures.workspace();
        await store.createWorkspace(other);
        expect(await store.setUserRole(other.workspace.id, ws.admin.id, 'viewer')).toBe(false);
        expect(await store.setUserRole(ws.workspace.id, ws.admin.id, 'member')).toBe(true);
        expect((await store.getUser(ws.workspace.id, ws.admin.id))?.role).toBe('member');
      });
    });

    describe('api keys', () => {
      it('finds a key by hash and round-trips every field', async () => {
        const k = fixtures.apiKey(ws.workspace.id, ws.admin.id, { expires_at: at(3600) });
        expect(await store.insertApiKey(k, { maxActive: 25, now: T0 })).toBe('inserted');
        expect(await store.findApiKeyByHash(k.key_hash)).toEqual(k);
        expect(await store.getApiKey(ws.workspace.id, k.id)).toEqual(k);
        expect(await store.findApiKeyByHash('0'.repeat(64))).toBeNull();
      });

      it('counts only active named keys against the cap: revoked and expired ones free a slot', async () => {
        const mk = (over: Partial<ApiKey> = {}) => fixtures.apiKey(ws.workspace.id, ws.admin.id, over);
        await store.insertApiKey(mk(), { maxActive: 3, now: T0 });
        const revoked = mk();
        await store.insertApiKey(revoked, { maxActive: 3, now: T0 });
        await store.insertApiKey(mk({ expires_at: at(10) }), { maxActive: 3, now: T0 });
        expect(await store.insertApiKey(mk(), { maxActive: 3, now: T0 })).toBe('limit_reached');
        await store.revokeApiKey(ws.workspace.id, revoked.id, T0);
        expect(await store.insertApiKey(mk(), { maxActive: 3, now: T0 })).toBe('inserted');
        expect(await store.insertApiKey(mk(), { maxActive: 3, now: at(5) })).toBe('limit_reached');
        expect(await store.insertApiKey(mk(), { maxActive: 3, now: at(10) })).toBe('inserted');
        // legacy keys do not count
        await store.replaceLegacyKey(mk({ kind: 'legacy' }), T0);
        expect(await store.insertApiKey(mk(), { maxActive: 3, now: at(10) })).toBe('limit_reached');
      });

      it('enforces the cap under concurrent inserts', async () => {
        const attempts = Array.from({ length: 10 }, () =>
          store.insertApiKey(fixtures.apiKey(ws.workspace.id, ws.admin.id), { maxActive: 4, now: T0 }),
        );
        const outcomes = await Promise.all(attempts);
        expect(outcomes.filter((o) => o === 'inserted').length).toBe(4);
        expect((await store.listApiKeys(ws.workspace.id, { limit: 100 })).data.length).toBe(4);
      });

      it('revokes once: a second revoke keeps the first time', async () => {
        const k = fixtures.apiKey(ws.workspace.id, ws.admin.id);
        await store.insertApiKey(k, { maxActive: 25, now: T0 });
        expect((await store.revokeApiKey(ws.workspace.id, k.id, at(1)))?.revoked_at).toEqual(at(1));
        expect((await store.revokeApiKey(ws.workspace.id, k.id, at(2)))?.revoked_at).toEqual(at(1));
        const other = fixtures.workspace();
        await store.createWorkspace(other);
        expect(await store.revokeApiKey(other.workspace.id, k.id, at(3))).toBeNull();
      });

      it('regenerating the legacy key revokes the old one', async () => {
        const a = fixtures.apiKey(ws.workspace.id, ws.admin.id, { kind: 'legacy', name: 'Legacy key' });
        const b = fixtures.apiKey(ws.workspace.id, ws.admin.id, { kind: 'legacy', name: 'Legacy key' });
        await store.replaceLegacyKey(a, T0);
        await store.replaceLegacyKey(b, at(5));
        expect((await store.findApiKeyByHash(a.key_hash))?.revoked_at).toEqual(at(5));
        expect((await store.findApiKeyByHash(b.key_hash))?.revoked_at).toBeNull();
      });

      it('lists a user’s keys or the workspace’s, newest first', async () => {
        const u: User = { ...ws.admin, id: randomUUID(), email: 'm@x.test', role: 'member' };
        await store.createUser(u);
        const k1 = fixtures.apiKey(ws.workspace.id, ws.admin.id, { created_at: at(1) });
        const k2 = fixtures.apiKey(ws.workspace.id, u.id, { created_at: at(2) });
        await store.insertApiKey(k1, { maxActive: 25, now: T0 });
        await store.insertApiKey(k2, { maxActive: 25, now: T0 });
        const ids = async (q: Omit<Parameters<Store['listApiKeys']>[1], 'limit'>) =>
          (await store.listApiKeys(ws.workspace.id, { limit: 10, ...q })).data.map((k) => k.id);
        expect(await ids({})).toEqual([k2.id, k1.id]);
        expect(await ids({ userId: u.id })).toEqual([k2.id]);
        // by kind: legacy keys are listed apart from named ones
        const legacy = fixtures.apiKey(ws.workspace.id, u.id, { kind: 'legacy', created_at: at(3) });
        await store.replaceLegacyKey(legacy, at(3));
        expect(await ids({ kind: 'named' })).toEqual([k2.id, k1.id]);
        expect(await ids({ kind: 'legacy' })).toEqual([legacy.id]);
        expect(await ids({ kind: 'legacy', userId: ws.admin.id })).toEqual([]);
      });

      it('pages keys newest first with a cursor; every key once', async () => {
        const keys = [1, 2, 2, 2, 3].map((s) =>
          fixtures.apiKey(ws.workspace.id, ws.admin.id, { created_at: at(s) }),
        );
        for (const k of keys) await store.insertApiKey(k, { maxActive: 25, now: T0 });
        const first = await store.listApiKeys(ws.workspace.id, { limit: 2, kind: 'named' });
        expect(first.data.map((k) => k.id)[0]).toBe(keys[4]!.id);
        const seen = [...first.data];
        let cursor = first.next_cursor ?? undefined;
        while (cursor) {
          const page = await store.listApiKeys(ws.workspace.id, { limit: 2, cursor, kind: 'named' });
          seen.push(...page.data);
          cursor = page.next_cursor ?? undefined;
        }
        expect(seen.map((k) => k.id).sort()).toEqual(keys.map((k) => k.id).sort());
        expect(seen.map((k) => k.created_at.getTime())).toEqual([3, 2, 2, 2, 1].map((s) => at(s).getTime()));
      });

      it('records last use, never moving it back', async () => {
        const k = fixtures.apiKey(ws.workspace.id, ws.admin.id);
        await store.insertApiKey(k, { maxActive: 25, now: T0 });
        await store.recordApiKeyUse(k.id, at(10), '10.0.0.1 curl/8');
        await store.recordApiKeyUse(k.id, at(5), 'older');
        const got = await store.getApiKey(ws.workspace.id, k.id);
        expect(got?.last_used_at).toEqual(at(10));
        expect(got?.last_used_from).toBe('10.0.0.1 curl/8');
      });
    });

    describe('monitors', () => {
      it('round-trips every field and keeps other workspaces out', async () => {
        const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
        expect(await store.insertMonitor(m, { maxMonitors: 10 })).toBe('inserted');
        expect(await store.getMonitor(ws.workspace.id, m.id)).toEqual(m);
        const other = fixtures.workspace();
        await store.createWorkspace(other);
        expect(await store.getMonitor(other.workspace.id, m.id)).toBeNull();
        expect(await store.deleteMonitor(other.workspace.id, m.id)).toBe(false);
        expect(await store.countMonitors(ws.workspace.id)).toBe(1);
      });

      it('enforces the plan cap, also under concurrent inserts', async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, () =>
            store.insertMonitor(fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id), { maxMonitors: 5 }),
          ),
        );
        expect(outcomes.filter((o) => o === 'inserted').length).toBe(5);
        expect(await store.countMonitors(ws.workspace.id)).toBe(5);
      });

      it('updates by compare-and-set on version', async () => {
        const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
        await store.insertMonitor(m, { maxMonitors: 10 });
        const next = { ...m, display_name: 'Renamed', version: 2, updated_at: at(1) };
        expect(await store.updateMonitor(next, 1)).toBe('updated');
        expect(await store.updateMonitor({ ...next, display_name: 'Lost update', version: 2 }, 1)).toBe(
          'conflict',
        );
        expect(await store.getMonitor(ws.workspace.id, m.id)).toEqual(next);
        expect(await store.updateMonitor({ ...next, id: randomUUID() }, 2)).toBe('not_found');
        expect(await store.deleteMonitor(ws.workspace.id, m.id)).toBe(true);
        expect(await store.getMonitor(ws.workspace.id, m.id)).toBeNull();
      });

      it('lists newest first with cursor pagination and filters', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
            created_at: at(i),
            monitor_type: i % 2 ? 'tcp' : 'http',
            paused: i === 4,
            display_name: `Monitor ${i}`,
          });
          await store.insertMonitor(m, { maxMonitors: 10 });
          ids.unshift(m.id);
        }
        const p1 = await store.listMonitors(ws.workspace.id, { limit: 2 });
        expect(p1.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
        const p2 = await store.listMonitors(ws.workspace.id, { limit: 2, cursor: p1.next_cursor! });
        expect(p2.data.map((m) => m.id)).toEqual(ids.slice(2, 4));
        const p3 = await store.listMonitors(ws.workspace.id, { limit: 2, cursor: p2.next_cursor! });
        expect(p3.data.map((m) => m.id)).toEqual(ids.slice(4));
        expect(p3.next_cursor).toBeNull();
        expect(
          (await store.listMonitors(ws.workspace.id, { limit: 10, monitor_type: 'tcp' })).data.length,
        ).toBe(2);
        expect((await store.listMonitors(ws.workspace.id, { limit: 10, paused: true })).data.length).toBe(1);
        expect(
          (await store.listMonitors(ws.workspace.id, { limit: 10, search: 'monitor 3' })).data.length,
        ).toBe(1);
        await expect(
          store.listMonitors(ws.workspace.id, { limit: 2, cursor: 'garbage' }),
        ).rejects.toMatchObject({
          code: 'validation_failed',
        });
      });
    });

    describe('heartbeats and pings', () => {
      it('stores a heartbeat, finds it by uuid alone, edits by version', async () => {
        const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id);
        await store.insertHeartbeat(h);
        expect(await store.findHeartbeat(h.id)).toEqual(h);
        const next = { ...h, display_name: 'hourly', period_seconds: 3600, version: 2, updated_at: at(1) };
        expect(await store.updateHeartbeat(next, 1)).toBe('updated');
        expect(await store.updateHeartbeat(next, 1)).toBe('conflict');
        // An edit leaves state and deadline to pings and the job, and makes the heartbeat due now.
        expect(await store.getHeartbeat(ws.workspace.id, h.id)).toEqual({
          ...next,
          due_at: at(1),
          state_version: 1,
        });
        const page = await store.listHeartbeats(ws.workspace.id, { limit: 10 });
        expect(page.data.map((x) => x.id)).toEqual([h.id]);
      });

      it('records a batch of pings durably and moves last_ping_at forward only', async () => {
        const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id);
        await store.insertHeartbeat(h);
        const ping = (s: number, kind: Ping['kind'] = 'success'): Ping => ({
          id: randomUUID(),
          heartbeat_id: h.id,
          workspace_id: ws.workspace.id,
          kind,
          at: at(s),
          received_at: at(100),
          source: '127.0.0.1',
          rid: null,
          exit_status: null,
          body: null,
        });
        await store.recordPings([ping(10), ping(30), ping(20), ping(40, 'start')]);
        let got = await store.findHeartbeat(h.id);
        expect(got?.last_ping_at).toEqual(at(30));
        expect(got?.state).toBe('up');
        await store.recordPings([ping(5)]);
        got = await store.findHeartbeat(h.id);
        expect(got?.last_ping_at).toEqual(at(30));
        const pings = (await store.listPings(ws.workspace.id, h.id, { limit: 10 })).data;
        expect(pings.map((p) => p.at.getTime())).toEqual([40, 30, 20, 10, 5].map((s) => at(s).getTime()));
        expect((await store.listPings(randomUUID(), h.id, { limit: 10 })).data).toEqual([]);
        // paged by ping time (newest first), ties broken by id; every ping once
        await store.recordPings([ping(20), ping(20)]);
        const seen: Ping[] = [];
        let cursor: string | undefined;
        do {
          const page = await store.listPings(ws.workspace.id, h.id, { limit: 2, cursor });
          expect(page.data.length).toBeLessThanOrEqual(2);
          seen.push(...page.data);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(seen.map((p) => p.at.getTime())).toEqual(
          [40, 30, 20, 20, 20, 10, 5].map((s) => at(s).getTime()),
        );
        expect(new Set(seen.map((p) => p.id)).size).toBe(7);
      });

      it('moves state by compare-and-set', async () => {
        const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { state: 'up' });
        await store.insertHeartbeat(h);
        expect(await store.transitionHeartbeat(ws.workspace.id, h.id, 'up', 'late', at(1))).toBe(true);
        expect(await store.transitionHeartbeat(ws.workspace.id, h.id, 'up', 'late', at(1))).toBe(false);
        expect((await store.findHeartbeat(h.id))?.state).toBe('late');
      });

      inboundScenarios(() => ({ store, ws }));

      it('deletes a heartbeat with its pings', async () => {
        const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id);
        await store.insertHeartbeat(h);
        await store.recordPings([
          {
            id: randomUUID(),
            heartbeat_id: h.id,
            workspace_id: ws.workspace.id,
            kind: 'success',
            at: T0,
            received_at: T0,
            source: null,
            rid: null,
            exit_status: null,
            body: null,
          },
        ]);
        expect(await store.deleteHeartbeat(ws.workspace.id, h.id)).toBe(true);
        expect(await store.findHeartbeat(h.id)).toBeNull();
        expect((await store.listPings(ws.workspace.id, h.id, { limit: 10 })).data).toEqual([]);
        expect(await store.deleteHeartbeat(ws.workspace.id, h.id)).toBe(false);
      });
    });

    describe('agents', () => {
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
        expect(
          await store.touchAgentSession(base.instance_id, 's2', at(7), { health, resultsAt: at(7) }),
        ).toBe(true);
        expect(await store.getAgentSession(base.instance_id)).toMatchObject({
          session_id: 's2',
          epoch: 2,
          last_seen_at: at(7),
          last_result_at: at(7),
          health,
        });
        expect(await store.touchAgentSession(base.instance_id, 's2', at(8))).toBe(true);
        expect((await store.getAgentSession(base.instance_id))?.health).toEqual(health);
        expect((await store.listAgentSessions('eu-west')).map((a) => a.instance_id)).toContain(
          base.instance_id,
        );
        expect((await store.listAgentSessions('us-east')).map((a) => a.instance_id)).not.toContain(
          base.instance_id,
        );
        await store.endAgentSession(base.instance_id, 's1');
        expect(await store.getAgentSession(base.instance_id)).not.toBeNull();
        await store.endAgentSession(base.instance_id, 's2');
        expect(await store.getAgentSession(base.instance_id)).toBeNull();
      });

      it('lists the monitors of a region: unpaused, with the region among their locations', async () => {
        const m1 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { check_locations: ['eu-west'] });
        const m2 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
          check_locations: ['eu-west', 'us-east'],
        });
        const m3 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
          check_locations: ['eu-west'],
          paused: true,
        });
        for (const m of [m1, m2, m3]) await store.insertMonitor(m, { maxMonitors: 10 });
        expect((await store.listRegionMonitors('eu-west')).map((m) => m.id).sort()).toEqual(
          [m1.id, m2.id].sort(),
        );
        expect((await store.listRegionMonitors('us-east')).map((m) => m.id)).toEqual([m2.id]);
        expect((await store.getMonitorsByIds([m3.id, randomUUID()])).map((m) => m.id)).toEqual([m3.id]);
        const all = [m1, m2, m3].map((m) => m.id).sort();
        const first = await store.scanMonitors(null, 2);
        const rest = await store.scanMonitors(first[1]!.id, 2);
        expect([...first, ...rest].map((m) => m.id)).toEqual(all);
      });

      it('appends every monitor change to the feed, in commit order and without gaps', async () => {
        expect(await store.latestMonitorChange()).toBe(0);
        const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
        await store.insertMonitor(m, { maxMonitors: 10 });
        expect(await store.updateMonitor({ ...m, display_name: 'x', version: 2 }, 1)).toBe('updated');
        expect(await store.updateMonitor({ ...m, display_name: 'y', version: 2 }, 1)).toBe('conflict');
        await store.requestRuns([
          { monitor_id: m.id, location: 'us-east', reason: 'confirm', request_id: 'r1', at: at(5) },
        ]);
        expect(await store.deleteMonitor(ws.workspace.id, m.id)).toBe(true);
        expect(await store.deleteMonitor(ws.workspace.id, m.id)).toBe(false);
        const feed = await store.listMonitorChanges(0, 100);
        expect(feed.map((e) => [e.seq, e.kind, e.monitor_id])).toEqual([
          [1, 'changed', m.id],
          [2, 'changed', m.id],
          [3, 'run', m.id],
          [4, 'changed', m.id],
        ]);
        expect(feed[2]).toMatchObject({
          location: 'us-east',
          reason: 'confirm',
          request_id: 'r1',
          at: at(5),
        });
        expect((await store.listMonitorChanges(2, 1)).map((e) => e.seq)).toEqual([3]);
        expect(await store.latestMonitorChange()).toBe(4);
        // Concurrent writers still get consecutive numbers.
        const many = Array.from({ length: 5 }, () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id));
        await Promise.all(many.map((x) => store.insertMonitor(x, { maxMonitors: 10 })));
        expect((await store.listMonitorChanges(4, 100)).map((e) => e.seq)).toEqual([5, 6, 7, 8, 9]);
        // Pruning keeps the newest entry, so the sequence never restarts.
        expect(await store.pruneMonitorChanges(new Date(Date.now() + 60_000), 100)).toBe(8);
        expect((await store.listMonitorChanges(0, 100)).map((e) => e.seq)).toEqual([9]);
      });
    });

    describe('check results and monitor state', () => {
      it('stores each result id once, however often it is replayed', async () => {
        const r1 = result(ws.workspace.id, 'm1');
        const r2 = result(ws.workspace.id, 'm1', {
          scheduled_at: at(60),
          ok: false,
          error_kind: 'timeout',
          error_message: 'x',
          status_code: null,
          timings: null,
          tls_valid_to: null,
        });
        expect(await store.insertResults([r1, r2])).toEqual([r1.id, r2.id]);
        expect(await store.insertResults([r2, r1, { ...r1, id: 'new' }])).toEqual(['new']);
        const page = await store.listResults(ws.workspace.id, 'm1', { limit: 10 });
        expect(page.data).toHaveLength(3);
        expect(
          page.data
            .map((r) => r.id)
            .slice(1)
            .sort(),
        ).toEqual([r1.id, 'new'].sort());
        expect(page.data[0]).toEqual(r2);
      });

      it('pages results newest first, filters by location and window, counts uptime, prunes', async () => {
        for (let i = 0; i < 6; i++) {
          await store.insertResults([
            result(ws.workspace.id, 'm2', {
              scheduled_at: at(i * 60),
              received_at: at(i * 60),
              ok: i % 3 !== 0,
              location: i % 2 ? 'us-east' : 'eu-west',
            }),
          ]);
        }
        const p1 = await store.listResults(ws.workspace.id, 'm2', { limit: 4 });
        const p2 = await store.listResults(ws.workspace.id, 'm2', { limit: 4, cursor: p1.next_cursor! });
        expect([...p1.data, ...p2.data].map((r) => r.scheduled_at.getTime())).toEqual(
          [5, 4, 3, 2, 1, 0].map((i) => at(i * 60).getTime()),
        );
        expect(
          (await store.listResults(ws.workspace.id, 'm2', { limit: 10, location: 'us-east' })).data,
        ).toHaveLength(3);
        expect(
          (await store.listResults(ws.workspace.id, 'm2', { limit: 10, since: at(60), until: at(180) })).data,
        ).toHaveLength(2);
        expect(await store.countResults(ws.workspace.id, 'm2', T0, at(360))).toEqual({ total: 6, ok: 4 });
        expect(await store.countResults('other', 'm2', T0, at(360))).toEqual({ total: 0, ok: 0 });
        expect(await store.pruneResults(at(120), 1)).toBe(1);
        expect(await store.pruneResults(at(120), 100)).toBe(1);
        expect(await store.countResults(ws.workspace.id, 'm2', T0, at(360))).toEqual({ total: 4, ok: 3 });
      });

      it('changes per-location state only by compare-and-set', async () => {
        const s: MonitorLocationState = {
          monitor_id: 'm3',
          location: 'eu-west',
          status: 'unknown',
          consecutive_failures: 1,
          consecutive_successes: 0,
          consecutive_slow: 0,
          last_result_at: T0,
          last_scheduled_at: T0,
          version: 1,
        };
        expect(await store.putMonitorState(s, 0)).toBe(true);
        expect(await store.putMonitorState({ ...s, consecutive_failures: 9 }, 0)).toBe(false);
        const next = { ...s, consecutive_failures: 2, version: 2 };
        expect(await store.putMonitorState(next, 1)).toBe(true);
        expect(await store.putMonitorState({ ...s, consecutive_failures: 7, version: 2 }, 1)).toBe(false);
        expect(await store.listMonitorStates('m3')).toEqual([next]);
      });

      it('records results and moves their location states in one step, each seeing the one before', async () => {
        const base = (location: string): MonitorLocationState => ({
          monitor_id: 'm4',
          location,
          status: 'unknown',
          consecutive_failures: 0,
          consecutive_successes: 0,
          consecutive_slow: 0,
          last_result_at: null,
          last_scheduled_at: null,
          version: 0,
        });
        const other: MonitorLocationState = { ...base('eu-west'), monitor_id: 'm5', version: 1 };
        expect(await store.putMonitorState(other, 0)).toBe(true);
        const rs = [
          result(ws.workspace.id, 'm4', { id: 'a', location: 'eu-west', scheduled_at: at(0) }),
          result(ws.workspace.id, 'm4', { id: 'b', location: 'us-east', scheduled_at: at(1) }),
          result(ws.workspace.id, 'm4', { id: 'c', location: 'eu-west', scheduled_at: at(2) }),
          result(ws.workspace.id, 'm4', { id: 'd', location: 'eu-west', scheduled_at: at(3) }),
        ];
        const seen: Record<string, number | null> = {};
        const step = (prev: MonitorLocationState | null, r: CheckResultRecord) => {
          seen[r.id] = prev ? prev.consecutive_failures : null;
          if (r.id === 'd') return null;
          const p = prev ?? base(r.location);
          return { ...p, consecutive_failures: p.consecutive_failures + 1, version: p.version + 1 };
        };
        const out = await store.recordResults(rs, step);
        expect(out.stored).toEqual(['a', 'b', 'c', 'd']);
        expect(seen).toEqual({ a: null, b: null, c: 1, d: 2 });
        expect(out.states.map((s) => [s.monitor_id, s.location, s.consecutive_failures, s.version])).toEqual([
          ['m4', 'eu-west', 2, 2],
          ['m4', 'us-east', 1, 1],
        ]);
        expect(await store.listMonitorStates('m4')).toEqual(out.states);
        // A replay stores nothing and steps nothing, but still reports the monitor's states.
        const again = await store.recordResults([rs[1]!, { ...rs[0]!, id: 'e', scheduled_at: at(4) }], step);
        expect(again.stored).toEqual(['e']);
        expect(again.states.find((s) => s.location === 'eu-west')?.consecutive_failures).toBe(3);
        expect((await store.listResults(ws.workspace.id, 'm4', { limit: 10 })).data).toHaveLength(5);
      });
    });

    describe('alerts', () => {
      it('raises at most one open alert per source, cause and dedup key, also concurrently', async () => {
        const results = await Promise.all(
          Array.from({ length: 6 }, () => store.raiseAlert(fixtures.alert(ws.workspace.id))),
        );
        expect(results.filter((r) => r.created).length).toBe(1);
        const ids = new Set(results.map((r) => r.alert.id));
        expect(ids.size).toBe(1);
        const other = await store.raiseAlert(fixtures.alert(ws.workspace.id, { dedup_key: 'k2' }));
        expect(other.created).toBe(true);
        const key = {
          workspace_id: ws.workspace.id,
          source_type: 'integration' as const,
          source_id: 'webhook-1',
          cause: 'webhook',
          dedup_key: 'k2',
        };
        expect((await store.findOpenAlert(key))?.id).toBe(other.alert.id);
        const first = { ...key, dedup_key: results[0]!.alert.dedup_key };
        expect(
          (await store.findOpenAlerts([key, first, { ...key, dedup_key: 'none' }])).map((a) => a.id).sort(),
        ).toEqual([other.alert.id, results[0]!.alert.id].sort());
        expect(await store.findOpenAlerts([])).toEqual([]);
        await store.resolveAlert(ws.workspace.id, other.alert.id, { type: 'system' }, T0);
        expect(await store.findOpenAlert(key)).toBeNull();
        expect((await store.findOpenAlerts([key, first])).map((a) => a.id)).toEqual([results[0]!.alert.id]);
      });

      it('resolves by compare-and-set, never reopens; the same key then opens a new alert', async () => {
        const a = fixtures.alert(ws.workspace.id);
        await store.raiseAlert(a);
        const by = { type: 'user' as const, user_id: ws.admin.id, api_key_id: null };
        const r1 = await store.resolveAlert(ws.workspace.id, a.id, by, at(60));
        expect(r1.outcome).toBe('resolved');
        expect(r1.alert).toMatchObject({ status: 'resolved', resolved_by: by, resolved_at: at(60) });
        const r2 = await store.resolveAlert(ws.workspace.id, a.id, { type: 'system' }, at(90));
        expect(r2.outcome).toBe('already_resolved');
        expect(r2.alert?.resolved_by).toEqual(by);
        expect(r2.alert?.resolved_at).toEqual(at(90 - 30));
        const again = await store.raiseAlert(fixtures.alert(ws.workspace.id, { created_at: at(120) }));
        expect(again.created).toBe(true);
        expect(again.alert.id).not.toBe(a.id);
        expect((await store.getAlert(ws.workspace.id, a.id))?.status).toBe('resolved');
        const other = fixtures.workspace();
        await store.createWorkspace(other);
        expect((await store.resolveAlert(other.workspace.id, again.alert.id, by, at(130))).outcome).toBe(
          'not_found',
        );
        expect((await store.getAlert(ws.workspace.id, again.alert.id))?.status).toBe('open');
      });

      it('resolving re-arms the source in the same step: a monitor leaves down, a heartbeat forgets the alert', async () => {
        const by = { type: 'user' as const, user_id: ws.admin.id, api_key_id: null };
        // A monitor whose monitor-level ('*') state is down with its 'down' alert open.
        const star: MonitorLocationState = {
          monitor_id: 'm-rearm',
          location: '*',
          status: 'down',
          consecutive_failures: 0,
          consecutive_successes: 0,
          consecutive_slow: 0,
          last_result_at: T0,
          last_scheduled_at: null,
          version: 1,
        };
        const eu = { ...star, location: 'eu-west', consecutive_failures: 3 };
        expect(await store.putMonitorState(star, 0)).toBe(true);
        expect(await store.putMonitorState(eu, 0)).toBe(true);
        const down = fixtures.alert(ws.workspace.id, {
          source_type: 'monitor',
          source_id: 'm-rearm',
          cause: 'down',
        });
        const slow = fixtures.alert(ws.workspace.id, {
          source_type: 'monitor',
          source_id: 'm-rearm',
          cause: 'slow',
        });
        await store.raiseAlert(down);
        await store.raiseAlert(slow);
        // A condition alert leaves the monitor-level state alone.
        await store.resolveAlert(ws.workspace.id, slow.id, by, at(10));
        expect(await store.listMonitorStates('m-rearm')).toEqual([star, eu]);
        expect((await store.resolveAlert(ws.workspace.id, down.id, by, at(20))).outcome).toBe('resolved');
        // Down → unknown with the version bumped (a flip racing it loses its compare-and-set);
        // location states are untouched.
        expect(await store.listMonitorStates('m-rearm')).toEqual([
          { ...star, status: 'unknown', version: 2 },
          eu,
        ]);
        expect(await store.putMonitorState({ ...star, status: 'up', version: 2 }, 1)).toBe(false);
        // Already resolved: nothing moves.
        await store.putMonitorState({ ...star, version: 3 }, 2);
        expect((await store.resolveAlert(ws.workspace.id, down.id, by, at(30))).outcome).toBe(
          'already_resolved',
        );
        expect((await store.listMonitorStates('m-rearm'))[0]).toMatchObject({ status: 'down', version: 3 });

        // A heartbeat down with its alert: resolving forgets the alert, records when, and makes it due.
        const hbId = randomUUID();
        const hbAlert = fixtures.alert(ws.workspace.id, {
          source_type: 'heartbeat',
          source_id: hbId,
          cause: 'fail',
        });
        const hb = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
          id: hbId,
          state: 'down',
          last_ping_at: T0,
          alert_id: hbAlert.id,
          state_version: 4,
        });
        await store.insertHeartbeat(hb);
        await store.raiseAlert(hbAlert);
        // Another heartbeat's alert (or one the heartbeat no longer holds) changes nothing.
        const stray = fixtures.alert(ws.workspace.id, {
          source_type: 'heartbeat',
          source_id: hb.id,
          cause: 'down',
        });
        await store.raiseAlert(stray);
        await store.resolveAlert(ws.workspace.id, stray.id, by, at(40));
        expect(await store.findHeartbeat(hb.id)).toEqual(hb);
        await store.resolveAlert(ws.workspace.id, hbAlert.id, by, at(50));
        expect(await store.findHeartbeat(hb.id)).toEqual({
          ...hb,
          alert_id: null,
          rearmed_at: at(50),
          due_at: at(50),
          state_version: 5,
        });
        // One that already recovered (a success, the job not yet run) only forgets it.
        const upAlert = fixtures.alert(ws.workspace.id, {
          source_type: 'heartbeat',
          source_id: randomUUID(),
        });
        const up = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
          id: upAlert.source_id,
          state: 'up',
          alert_id: upAlert.id,
          due_at: at(45),
        });
        await store.insertHeartbeat(up);
        await store.raiseAlert(upAlert);
        await store.resolveAlert(ws.workspace.id, upAlert.id, by, at(50));
        expect(await store.findHeartbeat(up.id)).toEqual({
          ...up,
          alert_id: null,
          due_at: at(50),
          state_version: 1,
        });
      });

      it('lists with status, source and time filters and cursor pagination', async () => {
        const made: Alert[] = [];
        for (let i = 0; i < 5; i++) {
          const a = fixtures.alert(ws.workspace.id, {
            dedup_key: `k${i}`,
            created_at: at(i * 60),
            source_type: i < 3 ? 'integration' : 'heartbeat',
          });
          await store.raiseAlert(a);
          made.unshift(a);
        }
        await store.resolveAlert(ws.workspace.id, made[0]!.id, { type: 'system' }, at(400));
        const open = await store.listAlerts(ws.workspace.id, { limit: 10, status: ['open'] });
        expect(open.data.map((a) => a.id)).toEqual(made.slice(1).map((a) => a.id));
        const hb = await store.listAlerts(ws.workspace.id, { limit: 10, source_type: 'heartbeat' });
        expect(hb.data.length).toBe(2);
        const window = await store.listAlerts(ws.workspace.id, { limit: 10, since: at(60), until: at(180) });
        expect(window.data.map((a) => a.created_at)).toEqual([at(120), at(60)]);
        const p1 = await store.listAlerts(ws.workspace.id, { limit: 3 });
        const p2 = await store.listAlerts(ws.workspace.id, { limit: 3, cursor: p1.next_cursor! });
        expect([...p1.data, ...p2.data].map((a) => a.id)).toEqual(made.map((a) => a.id));
        expect(p2.next_cursor).toBeNull();
      });
    });

    routingScenarios(() => ({ store, ws, alert: fixtures.alert, monitor: fixtures.monitor }));
    sessionScenarios(() => ({ store, ws }));
  });
};
