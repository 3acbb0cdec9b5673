import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../control-plane/src/store/port.js';
import { grpcAgent } from '../support/agent-client.js';
import { type Harness, startHarness } from '../support/harness.js';
import { jobPassed } from '../support/job-passes.js';

/**
 * Status pages (README.md, "Status pages"): the API under /api/v1/status-pages, and the public page at
 * /status/{slug} with its machine-readable forms, its cache, and its password.
 */

/**
 * Store calls by method name, counted as the control plane makes them: those a public page could make
 * (the background jobs' own calls, such as the monitor catalog's polling, are left out).
 */
const reads = new Map<string, number>();
const PAGE_READS = new Set([
  'getWorkspaceBySubdomain',
  'getStatusPageBySlug',
  'getStatusPageByDomain',
  'listPublicIncidents',
  'dailyUptime',
  'getMonitorStatuses',
  'getHeartbeat',
  'getMonitor',
  'listLiveMaintenanceWindows',
  'findActiveMaintenanceWindow',
]);
const counting = (s: Store): Store =>
  new Proxy(s, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || !PAGE_READS.has(String(prop))) return v;
      return (...args: unknown[]) => {
        reads.set(String(prop), (reads.get(String(prop)) ?? 0) + 1);
        return v.apply(target, args);
      };
    },
  });
const totalReads = () => [...reads.values()].reduce((a, b) => a + b, 0);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ status_auto_draft_ms: 20 }, { wrapStore: counting });
});
afterAll(() => h.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;

const monitor = async (w: Ws, name: string) => {
  const r = await w.api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'http',
      http_method: 'GET',
      expected_status_code: 200,
      url: `https://${name}.internal.example.test/health?token=s3cret`,
      request_headers: { Authorization: 'Bearer internal-secret' },
      check_interval_seconds: 60,
      timeout_seconds: 5,
      failure_threshold: 1,
      check_locations: ['eu-west'],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
};

const newPage = async (w: Ws, body: Record<string, unknown>) => {
  const r = await w.api('POST', '/status-pages', { json: body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as {
    id: string;
    slug: string;
    public_url: string;
    components: { id: string; name: string; status: string }[];
  };
};

const get = (w: Ws, path: string, headers: Record<string, string> = {}) =>
  h.request('GET', path, { host: w.host, headers });

describe('status pages API', () => {
  it('creates, reads, lists with a cursor, edits and deletes; components come back with ids and live status', async () => {
    const w = await h.workspace('sp-crud');
    const api = await monitor(w, 'api-internal-name');
    const p = await newPage(w, {
      name: 'Acme status',
      slug: 'acme',
      components: [
        { name: 'API', group: 'Core', monitor_id: api },
        { name: 'Support desk', description: 'Mail and chat', status: 'degraded_performance' },
      ],
    });
    expect(p).toMatchObject({
      slug: 'acme',
      visibility: 'public',
      custom_domain: null,
      auto_draft_incidents: false,
      components: [
        // Never checked: no data yet, never operational.
        { name: 'API', group: 'Core', monitor_id: api, heartbeat_id: null, status: 'unknown' },
        { name: 'Support desk', description: 'Mail and chat', status: 'degraded_performance' },
      ],
    });
    expect(p.public_url).toMatch(/^http:\/\/sp-crud\.localhost(:\d+)?\/status\/acme$/);
    expect(JSON.stringify(p)).not.toMatch(/password|cookie_secret/);
    expect((await w.api('GET', `/status-pages/${p.id}`)).body).toEqual(p);

    h.clock.advance(1000);
    await newPage(w, { name: 'Second', slug: 'second' });
    h.clock.advance(1000);
    await newPage(w, { name: 'Third', slug: 'third' });
    const first = await w.api('GET', '/status-pages?limit=2');
    expect(first.body.data.map((x: { slug: string }) => x.slug)).toEqual(['third', 'second']);
    const rest = await w.api(
      'GET',
      `/status-pages?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(rest.body).toMatchObject({ data: [{ slug: 'acme' }], next_cursor: null });

    const edited = await w.api('PATCH', `/status-pages/${p.id}`, {
      json: {
        name: 'Acme, Inc.',
        accent_color: '#AA0000',
        components: [
          { id: p.components[1]!.id, name: 'Support' },
          { id: p.components[0]!.id, name: 'API', monitor_id: api },
        ],
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      name: 'Acme, Inc.',
      accent_color: '#aa0000',
      components: [
        { id: p.components[1]!.id, name: 'Support', status: 'degraded_performance' },
        { id: p.components[0]!.id, name: 'API' },
      ],
    });
    expect((await w.api('DELETE', `/status-pages/${p.id}`)).status).toBe(204);
    expect((await w.api('GET', `/status-pages/${p.id}`)).status).toBe(404);
    expect((await w.api('DELETE', `/status-pages/${p.id}`)).status).toBe(404);
  });

  it('one 422 names every bad field; links to another workspace’s monitor are refused', async () => {
    const w = await h.workspace('sp-bad');
    const other = await h.workspace('sp-bad-other');
    const theirs = await monitor(other, 'theirs');
    const r = await w.api('POST', '/status-pages', {
      json: {
        name: 'x',
        slug: 'Bad Slug',
        visibility: 'password',
        accent_color: 'red',
        custom_domain: 'not a domain',
        components: [{ name: 'a', monitor_id: 'nope' }],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['accent_color', 'components[0].monitor_id', 'custom_domain', 'slug'].sort(),
    );
    const r2 = await w.api('POST', '/status-pages', {
      json: {
        name: 'x',
        slug: 'ok',
        visibility: 'password',
        custom_domain: `status.${h.config.service_domain === 'localhost' ? 'localhost' : h.config.service_domain}`,
        components: [
          { name: 'a', monitor_id: theirs },
          { name: 'b', monitor_id: theirs, heartbeat_id: theirs },
          { name: 'c', monitor_id: theirs, status: 'major_outage' },
        ],
      },
    });
    expect(r2.status).toBe(422);
    expect(r2.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        'components[0].monitor_id',
        'components[1].heartbeat_id',
        'components[1].heartbeat_id',
        'components[1].monitor_id',
        'components[2].monitor_id',
        'components[2].status',
        'custom_domain',
        'password',
      ].sort(),
    );
  });

  it('an empty name, a bad slug and an unknown monitor: one 422 names all three, on create and on edit', async () => {
    const w = await h.workspace('sp-bad-three');
    const unknown = crypto.randomUUID();
    const fields = (r: { body: { error: { details: { field: string }[] } } }) =>
      r.body.error.details.map((d) => d.field).sort();
    const r = await w.api('POST', '/status-pages', {
      json: { name: '', slug: 'Bad Slug!', components: [{ name: 'API', monitor_id: unknown }] },
    });
    expect(r.status).toBe(422);
    expect(fields(r)).toEqual(['components[0].monitor_id', 'name', 'slug']);
    const p = await newPage(w, { name: 'Fine', slug: 'fine' });
    const e = await w.api('PATCH', `/status-pages/${p.id}`, {
      json: {
        name: '',
        slug: '-bad-',
        components: [{ name: 'Nightly' }, { name: 'Jobs', heartbeat_id: unknown }],
      },
    });
    expect(e.status).toBe(422);
    expect(fields(e)).toEqual(['components[1].heartbeat_id', 'name', 'slug']);
  });

  it('roles: viewers read, members write; another workspace’s pages are 404', async () => {
    const w = await h.workspace('sp-roles');
    const viewer = await w.userWithKey('viewer');
    const member = await w.userWithKey('member');
    const p = await newPage(w, { name: 'Roles', slug: 'roles' });
    expect((await w.as(viewer.key)('GET', `/status-pages/${p.id}`)).status).toBe(200);
    expect((await w.as(viewer.key)('GET', `/status-pages/${p.id}/incidents`)).status).toBe(200);
    expect((await w.as(viewer.key)('PATCH', `/status-pages/${p.id}`, { json: { name: 'no' } })).status).toBe(
      403,
    );
    expect(
      (
        await w.as(viewer.key)('POST', `/status-pages/${p.id}/incidents`, {
          json: { title: 't', status: 'investigating', message: 'm', components: {} },
        })
      ).status,
    ).toBe(403);
    expect((await w.as(member.key)('PATCH', `/status-pages/${p.id}`, { json: { name: 'yes' } })).status).toBe(
      200,
    );
    const other = await h.workspace('sp-roles-other');
    expect((await other.api('GET', `/status-pages/${p.id}`)).status).toBe(404);
    expect((await other.api('PATCH', `/status-pages/${p.id}`, { json: { name: 'x' } })).status).toBe(404);
    expect((await other.api('DELETE', `/status-pages/${p.id}`)).status).toBe(404);
    expect((await other.api('GET', `/status-pages/${p.id}/incidents`)).status).toBe(404);
  });

  it('a slug taken in another workspace is fine; so is a custom domain another workspace claims without proof', async () => {
    const a = await h.workspace('sp-dom-a');
    const b = await h.workspace('sp-dom-b');
    await newPage(a, { name: 'A', slug: 'status', custom_domain: 'status.acme.example' });
    await newPage(b, { name: 'B', slug: 'status' });
    // A claim blocks nobody; only a domain proved by DNS is taken (status-custom-domain-proof.test.ts).
    const claimed = await b.api('POST', '/status-pages', {
      json: { name: 'B2', slug: 'other', custom_domain: 'STATUS.acme.example' },
    });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({
      custom_domain: 'status.acme.example',
      custom_domain_status: 'pending',
    });
    const same = await a.api('POST', '/status-pages', { json: { name: 'A2', slug: 'status' } });
    expect(same.status).toBe(409);
    expect(same.body.error.details[0].field).toBe('slug');
  });

  it('incidents: report, update, resolve, post-mortem; drafts are published or discarded', async () => {
    const w = await h.workspace('sp-inc');
    const p = await newPage(w, { name: 'Inc', slug: 'inc', components: [{ name: 'API' }, { name: 'Web' }] });
    const [api, web] = p.components;
    const bad = await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: { title: '', status: 'broken', message: '', components: { x: 'down' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['components.x', 'message', 'status', 'title'].sort(),
    );
    const unknown = await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: {
        title: 'x',
        status: 'investigating',
        message: 'm',
        components: { [crypto.randomUUID()]: 'major_outage' },
      },
    });
    expect(unknown.status).toBe(422);

    const created = await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: {
        title: 'API errors',
        status: 'investigating',
        message: 'Looking.',
        components: { [api!.id]: 'partial_outage' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({
      status: 'investigating',
      published: true,
      automatic: false,
      resolved_at: null,
    });
    expect(
      (await w.api('GET', `/status-pages/${p.id}`)).body.components.map((c: { status: string }) => c.status),
    ).toEqual(['partial_outage', 'operational']);
    const early = await w.api('PATCH', `/status-pages/${p.id}/incidents/${id}`, {
      json: { postmortem: '# Too early' },
    });
    expect(early.status).toBe(422);
    const upd = await w.api('POST', `/status-pages/${p.id}/incidents/${id}/updates`, {
      json: { status: 'identified', message: 'Found it.', components: { [web!.id]: 'degraded_performance' } },
    });
    expect(upd.status).toBe(201);
    expect(upd.body.components).toEqual({ [api!.id]: 'partial_outage', [web!.id]: 'degraded_performance' });
    const done = await w.api('POST', `/status-pages/${p.id}/incidents/${id}/updates`, {
      json: { status: 'resolved', message: 'Fixed.' },
    });
    expect(done.body).toMatchObject({ status: 'resolved', resolved_at: h.clock.now().toISOString() });
    expect(done.body.updates.map((u: { status: string }) => u.status)).toEqual([
      'investigating',
      'identified',
      'resolved',
    ]);
    expect(
      (await w.api('GET', `/status-pages/${p.id}`)).body.components.map((c: { status: string }) => c.status),
    ).toEqual(['operational', 'operational']);
    const pm = await w.api('PATCH', `/status-pages/${p.id}/incidents/${id}`, {
      json: { postmortem: '## Cause\n\nA bad deploy.' },
    });
    expect(pm.body.postmortem).toBe('## Cause\n\nA bad deploy.');

    const draft = await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: { title: 'Maybe', status: 'investigating', message: 'Draft.', published: false },
    });
    expect(draft.body.published).toBe(false);
    const drafts = await w.api('GET', `/status-pages/${p.id}/incidents?published=false`);
    expect(drafts.body.data.map((i: { id: string }) => i.id)).toEqual([draft.body.id]);
    const pub = await w.api('POST', `/status-pages/${p.id}/incidents/${draft.body.id}/publish`);
    expect(pub.body.published).toBe(true);
    expect((await w.api('POST', `/status-pages/${p.id}/incidents/${draft.body.id}/publish`)).status).toBe(
      409,
    );
    expect((await w.api('DELETE', `/status-pages/${p.id}/incidents/${draft.body.id}`)).status).toBe(204);
    expect((await w.api('GET', `/status-pages/${p.id}/incidents/${draft.body.id}`)).status).toBe(404);
    const all = await w.api('GET', `/status-pages/${p.id}/incidents?limit=1`);
    expect(all.body).toMatchObject({ data: [{ id }], next_cursor: null });
  });
});

describe('the public page', () => {
  it('shows components by group with live status, never the monitor’s address, headers or name; drafts stay hidden', async () => {
    const w = await h.workspace('sp-public');
    const mon = await monitor(w, 'db-primary-internal');
    const p = await newPage(w, {
      name: 'Public <Acme>',
      slug: 'acme',
      components: [
        { name: 'Checkout API', group: 'Core', monitor_id: mon },
        { name: 'Docs', status: 'operational' },
      ],
    });
    await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: { title: 'Secret draft', status: 'investigating', message: 'not yet', published: false },
    });
    const r = await get(w, '/status/acme');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.text).toContain('Public &lt;Acme&gt;');
    // Its monitor has never been checked: nothing says it is operational.
    expect(r.text).toContain('Some Components Have No Data Yet');
    expect(r.text).not.toContain('All Systems Operational');
    expect(r.text).toContain('Checkout API');
    expect(r.text).toContain('<h3 class="group">Core</h3>');
    expect(r.text).not.toMatch(/internal|s3cret|Bearer|db-primary|Secret draft/);
    expect(r.text).not.toMatch(/<script|https?:\/\/(?!sp-public)/);
    expect(r.text.match(/<li tabindex=0 /g)).toHaveLength(90);
    expect(Buffer.byteLength(r.text)).toBeLessThan(40_000);
    expect((await get(w, '/status/nope')).status).toBe(404);
    // Another workspace's host knows no such page.
    expect((await h.request('GET', '/status/acme', { host: 'sp-bad.localhost' })).status).toBe(404);
  });

  it('each path below a page answers by its table: views take GET and HEAD, forms their method, the rest 404', async () => {
    const w = await h.workspace('sp-paths');
    const p = await newPage(w, {
      name: 'Paths',
      slug: 'paths',
      components: [{ name: 'Web', status: 'operational' }],
    });
    const at = (method: string, rest: string, raw?: string) =>
      h.request(method, `/status/paths${rest}`, {
        host: w.host,
        ...(raw === undefined
          ? {}
          : {
              raw,
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                'sec-fetch-site': 'same-origin',
              },
            }),
      });
    for (const [rest, type] of [
      ['', 'text/html; charset=utf-8'],
      ['/', 'text/html; charset=utf-8'],
      ['/api/v2/summary.json', 'application/json; charset=utf-8'],
      ['/api/v2/status.json', 'application/json; charset=utf-8'],
      ['/feed.atom', 'application/atom+xml; charset=utf-8'],
      ['/feed.rss', 'application/rss+xml; charset=utf-8'],
      ['/badge.svg', 'image/svg+xml'],
      [`/components/${p.components[0]!.id}/badge.svg`, 'image/svg+xml'],
    ] as const) {
      const r = await at('GET', rest);
      expect([rest, r.status, r.headers['content-type']]).toEqual([rest, 200, type]);
      expect((await at('HEAD', rest)).status).toBe(200);
      const post = await at('POST', rest, 'x=1');
      expect([rest, post.status, post.headers.allow, post.body.error?.code]).toEqual([
        rest,
        405,
        'GET, HEAD',
        'method_not_allowed',
      ]);
    }
    // A view path that is not in the table (or a component not on this page) is a 404, whatever its method.
    for (const rest of [
      '/nothing',
      '/feed.atom/',
      '/__proto__',
      '/constructor',
      '/components/11111111-2222-4333-8444-555555555555/badge.svg',
    ])
      expect([rest, (await at('GET', rest)).status]).toEqual([rest, 404]);
    expect((await at('POST', '/nothing', 'x=1')).status).toBe(405);
    // The forms: the password only by POST (a public page sends the reader back to it), subscribing
    // only by POST, confirming and unsubscribing show their button to a GET.
    expect((await at('GET', '/access')).body.error.code).toBe('method_not_allowed');
    const access = await at('POST', '/access', 'password=x');
    expect([access.status, access.headers.location]).toEqual([303, '/status/paths']);
    expect((await at('GET', '/subscribe')).body.error.code).toBe('method_not_allowed');
    const confirm = await at('GET', '/subscribe/confirm?token=abc');
    expect([confirm.status, confirm.text.includes('Confirm subscription')]).toEqual([200, true]);
    const unsubscribe = await at('GET', '/unsubscribe?token=abc');
    expect([unsubscribe.status, unsubscribe.text.includes('value="abc"')]).toEqual([200, true]);
    expect((await at('POST', '/subscribe/confirm', 'token=nope')).status).toBe(404);
  });

  it('a component turns red when its monitor goes down, an open incident can say worse, and the JSON, feeds and badges follow', async () => {
    const w = await h.workspace('sp-live');
    const a = await monitor(w, 'live-a');
    const b = await monitor(w, 'live-b');
    const p = await newPage(w, {
      name: 'Live',
      slug: 'live',
      components: [
        { name: 'A', monitor_id: a, group: 'G' },
        { name: 'B', monitor_id: b, group: 'G' },
      ],
    });
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'sp-live',
    });
    await agent.report(a, h.clock.now(), true);
    await agent.report(b, h.clock.now(), true);
    const before = await get(w, '/status/live/api/v2/summary.json');
    expect(JSON.parse(before.text).status).toEqual({
      indicator: 'none',
      description: 'All Systems Operational',
    });

    // A's target dies: the next check fails; within the cache's 5 s (less than a check interval) it shows.
    h.clock.advance(60_000);
    await agent.report(a, h.clock.now(), false);
    h.clock.advance(5_000);
    const page = await get(w, '/status/live');
    expect(page.text).toContain('Partial System Outage');
    expect(page.text).toMatch(/<span class="name">A<\/span><span class="st s-major_outage">Major outage/);

    const summary = JSON.parse((await get(w, '/status/live/api/v2/summary.json')).text);
    expect(summary.page).toMatchObject({ id: p.id, name: 'Live', url: p.public_url, time_zone: 'Etc/UTC' });
    expect(summary.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    const byName = Object.fromEntries(summary.components.map((c: { name: string }) => [c.name, c]));
    expect(byName.A).toMatchObject({ id: p.components[0]!.id, status: 'major_outage', group: false });
    expect(byName.B).toMatchObject({ status: 'operational', group_id: byName.G.id });
    expect(byName.G).toMatchObject({
      group: true,
      status: 'major_outage',
      components: [byName.A.id, byName.B.id],
    });
    expect(summary.incidents).toEqual([]);
    expect(summary.scheduled_maintenances).toEqual([]);
    const status = JSON.parse((await get(w, '/status/live/api/v2/status.json')).text);
    expect(status).toEqual({ page: summary.page, status: summary.status });

    // An incident says B is degraded, which B's monitor does not see.
    const inc = await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: {
        title: 'Slow & flaky',
        status: 'identified',
        message: 'Queue <backlog>.',
        components: { [p.components[1]!.id]: 'degraded_performance' },
      },
    });
    const after = JSON.parse((await get(w, '/status/live/api/v2/summary.json')).text);
    expect(after.components.find((c: { name: string }) => c.name === 'B').status).toBe(
      'degraded_performance',
    );
    expect(after.incidents).toMatchObject([
      {
        id: inc.body.id,
        name: 'Slow & flaky',
        status: 'identified',
        impact: 'minor',
        incident_updates: [{ status: 'identified', body: 'Queue <backlog>.' }],
      },
    ]);
    const html = (await get(w, '/status/live')).text;
    expect(html).toContain('Active incidents');
    expect(html).toContain('Queue &lt;backlog&gt;.');

    const xml = new XMLParser({ ignoreAttributes: false });
    const atom = await get(w, '/status/live/feed.atom');
    expect(atom.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(atom.text)).toBe(true);
    const feed = xml.parse(atom.text).feed;
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.title).toBe('Live status');
    expect(feed.entry.title).toBe('Slow &amp; flaky (Identified)'.replace('&amp;', '&'));
    expect(feed.entry.content['#text']).toContain('Queue &lt;backlog&gt;.');
    const rss = await get(w, '/status/live/feed.rss');
    expect(XMLValidator.validate(rss.text)).toBe(true);
    const channel = xml.parse(rss.text).rss.channel;
    expect(channel.link).toBe(p.public_url);
    expect(channel.item.title).toBe('Slow & flaky (Identified)');

    const badge = await get(w, '/status/live/badge.svg');
    expect(badge.headers['content-type']).toBe('image/svg+xml');
    expect(XMLValidator.validate(badge.text)).toBe(true);
    expect(xml.parse(badge.text).svg['@_aria-label']).toBe('status: partial system outage');
    const cb = await get(w, `/status/live/components/${p.components[0]!.id}/badge.svg`);
    expect(xml.parse(cb.text).svg['@_aria-label']).toBe('A: major outage');
    expect((await get(w, `/status/live/components/${crypto.randomUUID()}/badge.svg`)).status).toBe(404);
  });

  it('never says operational before data: a monitor never checked and a heartbeat never pinged are unknown on the page, in the JSON, the API and the badges', async () => {
    const w = await h.workspace('sp-nodata');
    const m = await monitor(w, 'nodata-db');
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: { display_name: 'nodata-cron', period_seconds: 3600, grace_seconds: 60 },
      })
    ).body;
    const p = await newPage(w, {
      name: 'NoData',
      slug: 'nodata',
      components: [
        { name: 'Database', group: 'Core', monitor_id: m },
        { name: 'Nightly job', group: 'Core', heartbeat_id: hb.id },
      ],
    });
    expect(p.components.map((c) => c.status)).toEqual(['unknown', 'unknown']);
    const summaryOf = async () => JSON.parse((await get(w, '/status/nodata/api/v2/summary.json')).text);
    const xml = new XMLParser({ ignoreAttributes: false });
    const svg = async (path: string) => xml.parse((await get(w, `/status/nodata${path}`)).text).svg;

    const none = await summaryOf();
    // No alarm (Statuspage's indicator words only), but no claim either.
    expect(none.status).toEqual({ indicator: 'none', description: 'No Data Yet' });
    const byName = Object.fromEntries(
      none.components.map((c: { name: string; status: string }) => [c.name, c.status]),
    );
    expect(byName).toEqual({ Database: 'unknown', 'Nightly job': 'unknown', Core: 'unknown' });
    expect(JSON.parse((await get(w, '/status/nodata/api/v2/status.json')).text).status).toEqual(none.status);
    const html = (await get(w, '/status/nodata')).text;
    expect(html).toContain('<section class="banner b-nodata"');
    expect(html.match(/<span class="st s-unknown">No data yet<\/span>/g)).toHaveLength(2);
    expect(html).not.toMatch(/Operational/);
    const pageBadge = await svg('/badge.svg');
    expect(pageBadge['@_aria-label']).toBe('status: no data yet');
    expect(pageBadge.rect[1]['@_fill']).not.toBe('#1f9d55');
    expect((await svg(`/components/${p.components[1]!.id}/badge.svg`))['@_aria-label']).toBe(
      'Nightly job: no data yet',
    );

    // The monitor's first check succeeds: it is operational, the heartbeat still has no data.
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'sp-nodata',
    });
    await agent.report(m, h.clock.now(), true);
    h.clock.advance(5_000);
    const half = await summaryOf();
    expect(half.status).toEqual({ indicator: 'none', description: 'Some Components Have No Data Yet' });
    expect(half.components.map((c: { status: string }) => c.status)).toEqual([
      'operational',
      'unknown',
      'unknown',
    ]);
    expect((await svg('/badge.svg'))['@_aria-label']).toBe('status: some components have no data yet');
    const api = (await w.api('GET', `/status-pages/${p.id}`)).body;
    expect(api.components.map((c: { status: string }) => c.status)).toEqual(['operational', 'unknown']);

    // The first ping: everything is known and operational.
    expect((await h.request('POST', `/hb/ping/${hb.id}`)).status).toBe(200);
    h.clock.advance(5_000);
    const all = await summaryOf();
    expect(all.status).toEqual({ indicator: 'none', description: 'All Systems Operational' });
    expect(all.components.map((c: { status: string }) => c.status)).toEqual([
      'operational',
      'operational',
      'operational',
    ]);
    expect((await svg('/badge.svg')).rect[1]['@_fill']).toBe('#1f9d55');
    expect((await get(w, '/status/nodata')).text).toContain('<section class="banner b-none"');
  });

  it('a monitor or heartbeat paused before its first check or ping still has no data, not operational', async () => {
    const w = await h.workspace('sp-nodata-paused');
    const m = await monitor(w, 'paused-db');
    expect((await w.api('POST', `/monitors/${m}/pause`)).status).toBe(200);
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: { display_name: 'paused-cron', period_seconds: 3600, grace_seconds: 60 },
      })
    ).body;
    expect((await w.api('PATCH', `/heartbeats/${hb.id}`, { json: { paused: true } })).status).toBe(200);
    await newPage(w, {
      name: 'Paused',
      slug: 'paused',
      components: [
        { name: 'Database', monitor_id: m },
        { name: 'Cron', heartbeat_id: hb.id },
      ],
    });
    const summary = JSON.parse((await get(w, '/status/paused/api/v2/summary.json')).text);
    expect(summary.status.description).toBe('No Data Yet');
    expect(summary.components.map((c: { status: string }) => c.status)).toEqual(['unknown', 'unknown']);
  });

  it('a known outage still wins over no data: one component down and one never checked is a partial outage, not critical', async () => {
    const w = await h.workspace('sp-nodata-down');
    const a = await monitor(w, 'down-a');
    const b = await monitor(w, 'never-b');
    await newPage(w, {
      name: 'Mixed',
      slug: 'mixed',
      components: [
        { name: 'A', monitor_id: a },
        { name: 'B', monitor_id: b },
      ],
    });
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'sp-nodata-down',
    });
    await agent.report(a, h.clock.now(), false);
    h.clock.advance(5_000);
    const summary = JSON.parse((await get(w, '/status/mixed/api/v2/summary.json')).text);
    expect(summary.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    expect(summary.components.map((c: { status: string }) => c.status)).toEqual(['major_outage', 'unknown']);
  });

  it('uptime is over the days with checks and says how many, not over 90 days', async () => {
    const w = await h.workspace('sp-uptime');
    const m = await monitor(w, 'uptime-db');
    await newPage(w, { name: 'Uptime', slug: 'acme', components: [{ name: 'API', monitor_id: m }] });
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'sp-details',
    });
    // Three checks within the last minutes, one failed: 66.67% over the one day that has checks.
    const t = h.clock.now().getTime();
    await agent.report(m, new Date(t - 120_000), true);
    await agent.report(m, new Date(t - 60_000), false);
    await agent.report(m, new Date(t), true);
    h.clock.advance(5_000);
    const html = (await get(w, '/status/acme')).text;
    expect(html).toContain(
      '<span class="w">66.67% uptime over 1 day with data</span><span class="p">66.67% uptime over 1 day with data</span>',
    );
    expect(html).not.toContain('over 90 days');
  });

  it('a title never doubles "status": "Acme status" stays so on the page and in the feeds', async () => {
    const w = await h.workspace('sp-title');
    await newPage(w, { name: 'Acme status', slug: 'acme' });
    await newPage(w, { name: 'Beta', slug: 'beta' });
    expect((await get(w, '/status/acme')).text).toContain('<title>Acme status</title>');
    expect((await get(w, '/status/beta')).text).toContain('<title>Beta status</title>');
    const xml = new XMLParser({ ignoreAttributes: false });
    expect(xml.parse((await get(w, '/status/acme/feed.atom')).text).feed.title).toBe('Acme status');
    expect(xml.parse((await get(w, '/status/acme/feed.rss')).text).rss.channel.title).toBe('Acme status');
  });

  it('an unknown page answers HTML to a browser and the JSON error to a program', async () => {
    const w = await h.workspace('sp-unknown');

    const browser = await get(w, '/status/nope', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(browser.status).toBe(404);
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(browser.text).toContain('<h1>Status page not found</h1>');
    expect((await get(w, '/status/Not_A_Slug', { accept: 'text/html' })).headers['content-type']).toBe(
      'text/html; charset=utf-8',
    );
    for (const accept of [{ accept: 'application/json' }, {}] as Record<string, string>[]) {
      const program = await get(w, '/status/nope', accept);
      expect(program.status).toBe(404);
      expect(program.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(program.text).error.code).toBe('not_found');
    }
  });

  it('served from the cache: ETag, 304, Cache-Control, and a crowd of readers costs the store nothing', async () => {
    const w = await h.workspace('sp-cache');
    const m = await monitor(w, 'cached');
    const p = await newPage(w, {
      name: 'Cached',
      slug: 'cached',
      components: [{ name: 'C', monitor_id: m }],
    });
    const paths = [
      '',
      '/api/v2/summary.json',
      '/api/v2/status.json',
      '/feed.atom',
      '/feed.rss',
      '/badge.svg',
    ];
    const first = new Map<string, string>();
    for (const path of paths) {
      const r = await get(w, `/status/cached${path}`);
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('public, max-age=5');
      expect(r.headers.etag).toMatch(/^"[\w-]+"$/);
      first.set(path, r.headers.etag as string);
    }
    const before = totalReads();
    const snap = new Map(reads);
    for (let i = 0; i < 50; i++)
      for (const path of paths) {
        const r = await get(w, `/status/cached${path}`, i % 2 ? { 'if-none-match': first.get(path)! } : {});
        expect(r.status).toBe(i % 2 ? 304 : 200);
        if (i % 2) expect(r.text).toBe('');
      }
    // 600 reads (workspace lookups are cached by the app too): not one store call.
    expect([...reads].filter(([k, v]) => snap.get(k) !== v)).toEqual([]);
    expect(totalReads()).toBe(before);
    // Gzipped for readers that take it (the same page, its own tag; either tag validates).
    const gz = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) =>
        httpRequest(
          {
            host: '127.0.0.1',
            port: h.cp.port,
            path: '/status/cached',
            headers: { host: w.host, 'accept-encoding': 'br, gzip' },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          },
        )
          .on('error', reject)
          .end(),
    );
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers.etag).toBe(first.get('')!.replace(/"$/, '-gz"'));
    const plain = await get(w, '/status/cached');
    expect(gunzipSync(gz.body).toString()).toBe(plain.text);
    expect(gz.body.length).toBeLessThan(plain.text.length / 4);
    expect((await get(w, '/status/cached', { 'if-none-match': gz.headers.etag as string })).status).toBe(304);
    const head = await h.request('HEAD', '/status/cached', { host: w.host });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.etag).toBe(first.get(''));

    // An incident posted through the API shows at once (this replica's cache forgets the page).
    await w.api('POST', `/status-pages/${p.id}/incidents`, {
      json: { title: 'Now', status: 'investigating', message: 'm', components: {} },
    });
    const r = await get(w, '/status/cached', { 'if-none-match': first.get('')! });
    expect(r.status).toBe(200);
    expect(r.text).toContain('Now');
    // Past the cache's life, the page is read again (a change through another replica shows).
    const settled = totalReads();
    await get(w, '/status/cached');
    expect(totalReads()).toBe(settled);
    h.clock.advance(5_000);
    await get(w, '/status/cached');
    expect(totalReads()).toBeGreaterThan(settled);
  });

  it('a protected page asks for its password, admits with a signed cookie, and limits guesses', async () => {
    const w = await h.workspace('sp-pw');
    const p = await newPage(w, {
      name: 'Private',
      slug: 'private',
      visibility: 'password',
      password: 'correct horse',
    });
    const form = await get(w, '/status/private');
    expect(form.status).toBe(401);
    expect(form.text).toContain('<label for="pw">Password</label>');
    expect(form.text).not.toContain('All Systems');
    expect((await get(w, '/status/private/api/v2/summary.json')).status).toBe(401);
    const post = (password: string, ip = '') =>
      h.request('POST', '/status/private/access', {
        host: w.host,
        raw: new URLSearchParams({ password }).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(ip ? { 'x-forwarded-for': ip } : {}),
        },
      });
    const wrong = await post('wrong guess');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That password is not right.');
    const ok = await post('correct horse');
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/status/private');
    const cookies = (ok.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ');
    expect((ok.headers['set-cookie'] as string[]).join('\n')).toMatch(/HttpOnly/i);
    const inside = await get(w, '/status/private', { cookie: cookies });
    expect(inside.status).toBe(200);
    expect(inside.headers['cache-control']).toBe('private, no-cache');
    expect(inside.text).toContain('All Systems Operational');
    // A forged or altered cookie is not accepted.
    const forged = cookies.replace(/(lookout_page_\w+=)\d+/, '$19999999999999');
    expect((await get(w, '/status/private', { cookie: forged })).status).toBe(401);
    // Another page's password change ends every reader's access.
    await w.api('PATCH', `/status-pages/${p.id}`, { json: { password: 'battery staple' } });
    expect((await get(w, '/status/private', { cookie: cookies })).status).toBe(401);

    // Guessing: 10 tries (two used above), then 429 with Retry-After, even for the right password.
    for (let i = 0; i < 8; i++) expect((await post(`guess ${i}`)).status).toBe(401);
    const limited = await post('battery staple');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.advance(30_000);
    expect((await post('battery staple')).status).toBe(303);
  });

  it('maintenance windows over a component’s monitor show as scheduled, then in progress; a heartbeat component follows its heartbeat', async () => {
    const w = await h.workspace('sp-maint');
    const m = await monitor(w, 'maint-target');
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: { display_name: 'nightly-internal', period_seconds: 60, grace_seconds: 60 },
      })
    ).body;
    const p = await newPage(w, {
      name: 'Maint',
      slug: 'maint',
      components: [
        { name: 'Database', monitor_id: m },
        { name: 'Nightly job', heartbeat_id: hb.id },
      ],
    });
    const t = h.clock.now().getTime();
    const win = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'Database upgrade',
        scope_type: 'monitor',
        scope_id: m,
        starts_at: new Date(t + 3_600_000).toISOString(),
        ends_at: new Date(t + 7_200_000).toISOString(),
      },
    });
    expect(win.status).toBe(201);
    h.clock.advance(5_000);
    const upcoming = JSON.parse((await get(w, '/status/maint/api/v2/summary.json')).text);
    expect(upcoming.scheduled_maintenances).toMatchObject([
      {
        id: win.body.id,
        name: 'Database upgrade',
        status: 'scheduled',
        components: [{ id: p.components[0]!.id, name: 'Database' }],
      },
    ]);
    expect((await get(w, '/status/maint')).text).toMatch(/Database upgrade<\/h3><p class="meta">Scheduled/);
    h.clock.advance(3_600_000);
    const during = JSON.parse((await get(w, '/status/maint/api/v2/summary.json')).text);
    expect(during.scheduled_maintenances).toMatchObject([{ status: 'in_progress' }]);
    expect(during.components.find((c: { name: string }) => c.name === 'Database').status).toBe(
      'under_maintenance',
    );
    expect(during.status.description).toBe('Service Under Maintenance');
    // The heartbeat has never pinged (new): no data yet (its down and late states: component-status.test.ts).
    expect(during.components.find((c: { name: string }) => c.name === 'Nightly job').status).toBe('unknown');
    expect(JSON.stringify(during)).not.toMatch(/nightly-internal|maint-target/);
  });

  it('a heartbeat component is operational while pings come and a major outage once its deadline passes', async () => {
    const w = await h.workspace('sp-beat');
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: { display_name: 'backup-internal', period_seconds: 60, grace_seconds: 30 },
      })
    ).body;
    await newPage(w, { name: 'Beat', slug: 'beat', components: [{ name: 'Backups', heartbeat_id: hb.id }] });
    expect((await h.request('POST', `/hb/ping/${hb.id}`)).status).toBe(200);
    const statusOf = async () =>
      JSON.parse((await get(w, '/status/beat/api/v2/summary.json')).text).components[0].status as string;
    expect(await statusOf()).toBe('operational');
    h.clock.advance(91_000);
    await jobPassed(h.cp.url, 'heartbeat-deadlines', h.clock.now().getTime());
    h.clock.advance(5_000);
    expect(await statusOf()).toBe('major_outage');
    expect((await get(w, '/status/beat')).text).not.toContain('backup-internal');
  });

  it('a page asking for automatic drafts gets one per outage, never public until published, and none again once discarded', async () => {
    const w = await h.workspace('sp-auto');
    const a = await monitor(w, 'auto-a');
    const p = await newPage(w, {
      name: 'Auto',
      slug: 'auto',
      auto_draft_incidents: true,
      components: [{ name: 'A', monitor_id: a }],
    });
    const agent = await grpcAgent({
      store: h.store,
      config: h.config,
      rpcUrl: h.cp.rpcUrl,
      region: 'eu-west',
      instance: 'sp-auto',
    });
    await agent.report(a, h.clock.now(), true);
    h.clock.advance(60_000);
    await agent.report(a, h.clock.now(), false);
    // A pass that starts later than the report on the service's clock (one at the same instant may have
    // read the store before the failure was written).
    h.clock.advance(1);
    await jobPassed(h.cp.url, 'status-page-drafts', h.clock.now().getTime());
    const drafts = await w.api('GET', `/status-pages/${p.id}/incidents?published=false`);
    expect(drafts.body.data).toMatchObject([
      {
        title: 'A is down',
        status: 'investigating',
        published: false,
        automatic: true,
        components: { [p.components[0]!.id]: 'major_outage' },
      },
    ]);
    const draftId = drafts.body.data[0].id;
    h.clock.advance(5_000);
    const summary = JSON.parse((await get(w, '/status/auto/api/v2/summary.json')).text);
    expect(summary.incidents).toEqual([]);
    expect((await get(w, '/status/auto')).text).not.toContain('A is down');

    // Discarded: the same outage opens no other draft (a pass that started after the discard proves it).
    const discarded = await w.api('POST', `/status-pages/${p.id}/incidents/${draftId}/discard`);
    expect(discarded.body).toMatchObject({ status: 'resolved', published: false });
    h.clock.advance(1_000);
    await jobPassed(h.cp.url, 'status-page-drafts', h.clock.now().getTime());
    expect((await w.api('GET', `/status-pages/${p.id}/incidents`)).body.data).toHaveLength(1);

    // Recovery, then a new outage: a new draft, which a person publishes.
    h.clock.advance(60_000);
    await agent.report(a, h.clock.now(), true);
    h.clock.advance(60_000);
    await agent.report(a, h.clock.now(), false);
    // A pass that starts later than the report on the service's clock (one at the same instant may have
    // read the store before the failure was written).
    h.clock.advance(1);
    await jobPassed(h.cp.url, 'status-page-drafts', h.clock.now().getTime());
    const again = await w.api('GET', `/status-pages/${p.id}/incidents`);
    expect(again.body.data).toHaveLength(2);
    const second = again.body.data[0];
    expect(second).toMatchObject({ published: false, status: 'investigating' });
    expect((await w.api('POST', `/status-pages/${p.id}/incidents/${draftId}/discard`)).status).toBe(200);
    await w.api('POST', `/status-pages/${p.id}/incidents/${second.id}/publish`);
    expect((await w.api('POST', `/status-pages/${p.id}/incidents/${second.id}/discard`)).status).toBe(409);
    const shown = JSON.parse((await get(w, '/status/auto/api/v2/summary.json')).text);
    expect(shown.incidents).toMatchObject([{ id: second.id, name: 'A is down' }]);
  });
});
