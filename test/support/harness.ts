import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, type Logger, ManualClock, silentLogger } from '@lookout/shared';
import { type Config, loadConfig } from '../../control-plane/src/config.js';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { createUser, createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { Role } from '../../control-plane/src/domain/types.js';
import { startControlPlane } from '../../control-plane/src/process/server.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  body: any;
  text: string;
}

export interface RequestOptions {
  host?: string;
  key?: string;
  json?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** A real control plane on a loopback port with a fresh SQLite file and a manual clock. */
export const startHarness = async (
  overrides: Partial<Config> = {},
  opts: {
    clock?: Clock /** What the control plane is given instead of the store (a counting proxy). */;
    wrapStore?: (s: Store) => Store;
    /** The control plane's logger (default: silent), e.g. one writing into a test's buffer. */
    logger?: Logger;
  } = {},
) => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-e2e-'));
  const config = loadConfig(
    {},
    {
      http_port: 0,
      rpc_port: 0,
      http_host: '127.0.0.1',
      data_dir: dir,
      log_level: 'silent',
      // Tests send bad keys and bursts of pings from one address on purpose; rate-limits.test.ts
      // sets the limits it tests.
      auth_failures_per_minute: 0,
      pings_per_heartbeat_per_second: 0,
      // Every success response is checked against the schema its route declares (see response-check.ts).
      validate_responses: true,
      // Tests' receivers (webhooks, chat and push services, SMTP servers) listen on loopback; the
      // default refuses them (notification-guard.test.ts proves it).
      notify_allow_private: true,
      // One message per alert, as the suites written before grouped notifications expect;
      // test/e2e/grouped-notifications.test.ts turns grouping on.
      notify_group_interval_seconds: 0,
      ...overrides,
    },
  );
  const store: Store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const cp = await startControlPlane({
    config,
    store: opts.wrapStore ? opts.wrapStore(store) : store,
    logger: opts.logger ?? silentLogger(),
    clock: opts.clock ?? clock,
  });

  const request = (method: string, path: string, opts: RequestOptions = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      headers.host = opts.host ?? 'localhost';
      if (opts.key) headers['x-api-key'] = opts.key;
      let payload: Buffer | undefined;
      if (opts.json !== undefined) {
        payload = Buffer.from(JSON.stringify(opts.json));
        headers['content-type'] ??= 'application/json';
      } else if (opts.raw !== undefined) payload = Buffer.from(opts.raw);
      if (payload) headers['content-length'] = String(payload.length);
      const req = httpRequest({ host: '127.0.0.1', port: cp.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });

  /** A workspace with an admin and a named key for each role asked for. */
  const workspace = async (subdomain: string, plan = 'team') => {
    const created = await createWorkspace(
      store,
      config.plans,
      { subdomain, admin_email: `admin@${subdomain}.test`, plan },
      clock.now(),
    );
    const adminKey = await createNamedKey(
      store,
      created.workspace,
      created.admin,
      { name: 'admin key', expiry: 'none' },
      clock.now(),
    );
    const host = `${subdomain}.localhost`;
    const userWithKey = async (
      role: Role,
      email = `${role}-${Math.random().toString(36).slice(2, 8)}@${subdomain}.test`,
    ) => {
      const { user, password } = await createUser(store, created.workspace, { email, role }, clock.now());
      const k = await createNamedKey(
        store,
        created.workspace,
        user,
        { name: `${role} key`, expiry: 'none' },
        clock.now(),
      );
      return { user, password, key: k.value, keyId: k.record.id };
    };
    const as =
      (key: string) =>
      (method: string, path: string, opts: Omit<RequestOptions, 'key' | 'host'> = {}) =>
        request(method, `/api/v1${path}`, { ...opts, key, host });
    return {
      ...created,
      host,
      adminKey: adminKey.value,
      adminKeyId: adminKey.record.id,
      userWithKey,
      as,
      api: as(adminKey.value),
    };
  };

  return {
    config,
    store,
    clock,
    cp,
    dir,
    request,
    workspace,
    async close() {
      await cp.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export type Harness = Awaited<ReturnType<typeof startHarness>>;
