import { silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPingBatcher } from '../../control-plane/src/domain/heartbeats/ping-batcher.js';
import { createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import { NAME_PATTERN } from '../../control-plane/src/domain/validation.js';
import { allRoutes } from '../../control-plane/src/http/app.js';
import type { AnyRoute } from '../../control-plane/src/http/route.js';
import { sharedServices } from '../../control-plane/src/process/wiring.js';
import { type Harness, type RequestOptions, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/**
 * Names, titles and labels are one line of text without control or bidirectional formatting
 * characters, in every field of every endpoint: the fields are found by walking the route table and
 * each endpoint's body schema, so a new name field is covered without editing this file.
 */

/** A body field is a name when its key is one of these words or ends in `_` and one of them. */
const NAME_KEY = /(?:^|_)(?:name|title|label)$/;

/** One of each kind the rule refuses: C0 (NUL, tab, line breaks, ESC), DEL, C1, separators, bidi. */
const REFUSED = [
  '\u0000',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
];

type Json = { [k: string]: unknown };
type Path = (string | number)[];
interface NameField {
  path: Path;
  /** What the body must also hold to reach the field: the constants naming a variant (`type: "email"`). */
  context: [Path, unknown][];
  /** The field's schema (its string variant when it is nullable). */
  schema: Json;
}

const stringVariant = (s: Json): Json | undefined =>
  s.type === 'string' ? s : ((s.anyOf ?? s.oneOf) as Json[] | undefined)?.find((x) => x.type === 'string');

/** Every name field in a JSON schema, with the variant constants that lead to it. */
const nameFields = (schema: Json, path: Path = [], context: [Path, unknown][] = []): NameField[] => {
  const out: NameField[] = [];
  for (const variant of [...((schema.anyOf ?? schema.oneOf ?? schema.allOf ?? []) as Json[])]) {
    const consts = Object.entries((variant.properties ?? {}) as Record<string, Json>)
      .filter(([, p]) => 'const' in p)
      .map(([k, p]): [Path, unknown] => [[...path, k], p.const]);
    out.push(...nameFields(variant, path, [...context, ...consts]));
  }
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    const str = stringVariant(sub);
    if (NAME_KEY.test(key) && str) out.push({ path: [...path, key], context, schema: str });
    out.push(...nameFields(sub, [...path, key], context));
  }
  if (schema.items) out.push(...nameFields(schema.items as Json, [...path, 0], context));
  return out;
};

const fieldName = (path: Path) =>
  path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');

/** A body holding `value` at `path`, and the variant constants. */
const bodyWith = (field: NameField, value: unknown): Json => {
  const body: Json = {};
  for (const [path, v] of [...field.context, [field.path, value] as [Path, unknown]]) {
    let at: Json | unknown[] = body;
    path.forEach((key, i) => {
      const last = i === path.length - 1;
      const slot = at as Record<string | number, unknown>;
      if (last) slot[key] = v;
      else {
        slot[key] ??= typeof path[i + 1] === 'number' ? [] : {};
        at = slot[key] as Json;
      }
    });
  }
  return body;
};

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
/** An existing record of each collection, for the endpoints that change one. */
let ids: Record<string, string>;
let serviceKeys: Record<string, string>;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('names');
  const created = async (path: string, json: unknown) => {
    const r = await w.api('POST', path, { json });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  const monitor = await created('/monitors/create', {
    display_name: 'm',
    monitor_type: 'http',
    url: 'https://example.com/',
    http_method: 'GET',
    expected_status_code: 200,
  });
  const heartbeat = await created('/heartbeats', { display_name: 'hb' });
  const policy = await created('/escalation-policies', {
    name: 'p',
    steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id] }],
  });
  const channel = await created('/channels', {
    name: 'c',
    type: 'webhook',
    config: { url: 'https://hooks.test/x' },
  });
  const window = await created('/maintenance-windows', {
    name: 'mw',
    scope_type: 'workspace',
    starts_at: '2026-06-02T00:00:00Z',
    ends_at: '2026-06-02T01:00:00Z',
  });
  const statusPage = await created('/status-pages', { name: 'sp', slug: 'sp' });
  const group = await created('/groups', { name: 'g' });
  const schedule = await created('/schedules', { name: 's', timezone: 'UTC', layers: [] });
  serviceKeys = {};
  let integration = '';
  for (const kind of ['webhook', 'alertmanager', 'grafana', 'pagerduty']) {
    const i = await created('/integrations', { name: kind, kind });
    serviceKeys[kind] = i.service_key;
    integration = i.id;
  }
  ids = {
    monitors: monitor.id,
    heartbeats: heartbeat.id,
    'escalation-policies': policy.id,
    channels: channel.id,
    'maintenance-windows': window.id,
    'status-pages': statusPage.id,
    groups: group.id,
    schedules: schedule.id,
    integrations: integration,
  };
  const signedIn = await h.request('POST', '/api/v1/session', {
    host: w.host,
    json: { email: w.admin.email, password: w.password },
  });
  session = { cookie: String(signedIn.headers['set-cookie']).split(';')[0]!, csrf: signedIn.body.csrf_token };
});
afterAll(() => h.close());

const routes = () =>
  allRoutes({
    store: h.store,
    config: h.config,
    clock: h.clock,
    logger: silentLogger(),
    pings: createPingBatcher(async () => {}, { maxBatch: 1, maxQueued: 1 }),
    ...sharedServices(h.config, h.clock, h.store),
    workspaceUrl: (subdomain) => `http://${subdomain}.localhost:${h.cp.port}`,
  });

/** The endpoints that take a body, each with the name fields of its schema. */
const withNames = () =>
  routes()
    .filter((r): r is AnyRoute & { body: z.ZodType } => Boolean(r.body) && r.method !== 'get')
    .map((r) => ({
      route: r,
      fields: nameFields(z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) as Json),
    }))
    .filter((x) => x.fields.length > 0);

const send = (r: AnyRoute, json: unknown) => {
  const path = `/api/v1${r.path.replace(/^\/([\w-]+)\/\{\w+\}/, (_m, collection: string) => {
    const id = ids[collection];
    if (!id) throw new Error(`no ${collection} record for ${r.path}: add one in beforeAll`);
    return `/${collection}/${id}`;
  })}`;
  const kind = /^\/integrations\/(\w+)\//.exec(r.path)?.[1];
  const credentials: RequestOptions =
    r.auth === 'session'
      ? { headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } }
      : r.auth === 'service_key'
        ? { headers: { authorization: `Bearer ${serviceKeys[kind!]}` } }
        : { key: w.adminKey };
  return h.request(r.method.toUpperCase(), path, { host: w.host, json, ...credentials });
};

describe('names on every endpoint', () => {
  it('finds the name fields of the route table, and each is held to the one rule (shown in the API document)', () => {
    const found = withNames().flatMap((x) =>
      x.fields.map((f) => `${x.route.method} ${x.route.path} ${fieldName(f.path)}`),
    );
    // The walk itself works: these are among what it finds.
    expect(found).toEqual(
      expect.arrayContaining([
        'post /monitors/create display_name',
        'patch /monitors/{id} display_name',
        'post /heartbeats display_name',
        'patch /heartbeats/{uuid} display_name',
        'post /api-keys name',
        'post /escalation-policies name',
        'patch /escalation-policies/{id} name',
        'post /channels name',
        'patch /channels/{id} name',
        'post /maintenance-windows name',
        'patch /maintenance-windows/{id} name',
        'post /groups name',
        'patch /groups/{id} name',
        'post /integrations name',
        'patch /integrations/{integration_id} name',
        'post /integrations/webhook/events title',
      ]),
    );
    for (const { route, fields } of withNames()) {
      for (const f of fields) {
        expect(f.schema.pattern, `${route.method} ${route.path} ${fieldName(f.path)}`).toBe(
          NAME_PATTERN.source,
        );
      }
    }
  });

  it('a control or bidirectional formatting character in any name field: 422 naming the field and the character', async () => {
    for (const { route, fields } of withNames()) {
      for (const f of fields) {
        for (const c of REFUSED) {
          const label = `${route.method} ${route.path} ${fieldName(f.path)} ${JSON.stringify(c)}`;
          const r = await send(route, bodyWith(f, `a${c}b`));
          expect(r.status, `${label} ${JSON.stringify(r.body)}`).toBe(422);
          const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
          expect(r.body.error.details, label).toContainEqual({
            field: fieldName(f.path),
            message: `must be one line without control or bidirectional formatting characters (found ${code})`,
          });
        }
      }
    }
  });

  it('a name with no visible character (zero-width spaces, joiners, fillers, a lone combining mark): 422 naming the field', async () => {
    const invisible = [
      '\u200b\u200b',
      '\u200d',
      '\u00ad',
      '\u2060\ufeff',
      '\u3164',
      '\u115f',
      '\u2800',
      '\u0301',
      ' \u200b ',
    ];
    for (const { route, fields } of withNames()) {
      for (const f of fields) {
        for (const v of invisible) {
          const label = `${route.method} ${route.path} ${fieldName(f.path)} ${JSON.stringify(v)}`;
          const r = await send(route, bodyWith(f, v));
          expect(r.status, `${label} ${JSON.stringify(r.body)}`).toBe(422);
          expect(r.body.error.details, label).toContainEqual({
            field: fieldName(f.path),
            message: 'must have at least one visible character',
          });
        }
      }
    }
  });

  it('at the start or end too: a trailing line break is refused, not trimmed away', async () => {
    const r = await w.api('POST', '/heartbeats', { json: { display_name: 'nightly\n' } });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([
      {
        field: 'display_name',
        message: 'must be one line without control or bidirectional formatting characters (found U+000A)',
      },
    ]);
  });

  it('markup, other scripts, emoji with joiners and surrounding spaces are fine, stored as sent (trimmed)', async () => {
    for (const name of [
      '<img src=x onerror=alert(1)>',
      '"quotes" & \'apostrophes\'',
      'نسخ احتياطي ليلي',
      'גיבוי לילי',
      'Ops 👩\u200d💻 team',
      'café\u00a0nightly',
    ]) {
      const r = await w.api('POST', '/heartbeats', { json: { display_name: `  ${name}  ` } });
      expect(r.status, name).toBe(201);
      expect(r.body.display_name).toBe(name);
      const back = await w.api('GET', `/heartbeats/${r.body.id}`);
      expect(back.body.display_name).toBe(name);
    }
  });

  it('nothing refused was stored', async () => {
    const names = [
      ...(await h.store.listHeartbeats(w.workspace.id, { limit: 100 })).data.map((x) => x.display_name),
      ...(await h.store.listMonitors(w.workspace.id, { limit: 100 })).data.map((x) => x.display_name),
      ...(await h.store.listChannels(w.workspace.id, { limit: 100 })).data.map((x) => x.name),
      ...(await h.store.listAlerts(w.workspace.id, { limit: 100 })).data.map((x) => x.title),
    ];
    for (const n of names) expect(n, JSON.stringify(n)).toMatch(NAME_PATTERN);
  });
});

describe('names outside the route table', () => {
  it('OAuth client registration: a client_name with a control or bidi character is invalid_client_metadata', async () => {
    const register = (client_name: string) =>
      h.request('POST', '/oauth/register', {
        host: w.host,
        json: {
          client_name,
          redirect_uris: ['http://127.0.0.1:9999/callback'],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      });
    const bad = await register('Claude\u202Eeulav');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_client_metadata' });
    expect(bad.body.error_description).toMatch(/client_name/);
    const blank = await register('\u200b\u200b');
    expect(blank.status).toBe(400);
    expect(blank.body.error_description).toMatch(/client_name must have at least one visible character/);
    const ok = await register('<b>Assistant</b>');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.client_name).toBe('<b>Assistant</b>');
  });

  it('the CLI: an agent token or API key name with an escape sequence fails with a one-line reason', async () => {
    const env = { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' };
    const token = await runCli(
      ['agent-token', 'create', '--region', 'eu-west', '--name', 'a\u001b[31mred'],
      env,
    );
    expect(token.code).not.toBe(0);
    expect(token.stderr).toMatch(/name must be one line without control .*\(found U\+001B\)\n$/);
    const key = await runCli(
      [
        'api-key',
        'create',
        '--workspace',
        'names',
        '--email',
        w.admin.email,
        '--name',
        'k\u202E',
        '--expiry',
        'none',
      ],
      env,
    );
    expect(key.code).not.toBe(0);
    expect(key.stderr).toMatch(/name must be one line .*\(found U\+202E\)\n$/);
  });

  it('a workspace name', async () => {
    await expect(
      createWorkspace(
        h.store,
        h.config.plans,
        { subdomain: 'names-ws', admin_email: 'a@names-ws.test', plan: 'free', name: 'Acme\u2066' },
        h.clock.now(),
      ),
    ).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'name' }] });
    await expect(
      createWorkspace(
        h.store,
        h.config.plans,
        { subdomain: 'names-ws', admin_email: 'a@names-ws.test', plan: 'free', name: '\u200b\u200b' },
        h.clock.now(),
      ),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'name', message: 'must have at least one visible character' }],
    });
  });

  it("other tools' alert titles are taken as one line rather than refused", async () => {
    const am = await h.request('POST', '/api/v1/integrations/alertmanager/events', {
      host: w.host,
      headers: { authorization: `Bearer ${serviceKeys.alertmanager}` },
      json: {
        version: '4',
        status: 'firing',
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'DiskFull' },
            annotations: { summary: 'Disk\nfull on\u202E db-1\u0000' },
            fingerprint: 'fp-names-1',
          },
        ],
      },
    });
    expect(am.status, JSON.stringify(am.body)).toBeLessThan(300);
    const pd = await h.request('POST', '/v2/enqueue', {
      host: w.host,
      json: {
        routing_key: serviceKeys.pagerduty,
        event_action: 'trigger',
        dedup_key: 'pd-names-1',
        payload: { summary: '\tCPU\r\nhigh\u2069', source: 'web-1', severity: 'critical' },
      },
    });
    expect(pd.status, JSON.stringify(pd.body)).toBe(202);
    const titles = (await w.api('GET', '/alerts')).body.data.map((a: { title: string }) => a.title);
    expect(titles).toEqual(expect.arrayContaining(['Disk full on db-1', 'CPU high']));
  });
});
