import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, CheckResultRecord } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * GET /export/results and /export/alerts through a real control plane: the NDJSON lines are the items
 * of GET /monitors/{id}/results and GET /alerts exactly, the CSV cells too (formula-safe), filters and
 * window, the results the flush has not folded yet once each, roles, one 422 naming every bad field,
 * another workspace's monitor a 404, and a client that stops reading or goes away stops the reads.
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let other: Awaited<ReturnType<Harness['workspace']>>;
/** Pages read by the results export (the store's own method, counted on the way). */
let pageReads = 0;
const monitors: string[] = [];
let foreign: string;

const T = Date.parse('2026-05-01T00:00:00Z');
const iso = (s: number) => new Date(T + s * 1000).toISOString();
const result = (
  ws: string,
  m: string,
  s: number,
  over: Partial<CheckResultRecord> = {},
): CheckResultRecord => ({
  id: randomUUID(),
  workspace_id: ws,
  monitor_id: m,
  monitor_version: 1,
  location: 'eu-west',
  instance_id: 'agent-1',
  scheduled_at: new Date(T + s * 1000),
  started_at: new Date(T + s * 1000),
  received_at: new Date('2026-06-01T11:00:00Z'),
  ok: true,
  error_kind: null,
  error_message: null,
  response_time_ms: 120,
  status_code: 200,
  timings: { dns_ms: 1, connect_ms: 2, tls_ms: 3, first_byte_ms: 50, total_ms: 120 },
  tls_valid_to: null,
  domain_expires_at: null,
  dns_records: [],
  run_now_request_id: null,
  ...over,
});
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
const fields = (r: { body: { error?: { details?: { field: string }[] } } }) =>
  (r.body.error?.details ?? []).map((d) => d.field).sort();
/** Every item of GET /monitors/{id}/results in the window, oldest first (the export's order within a monitor). */
const listed = async (m: string, q = '') => {
  const out: unknown[] = [];
  let cursor = '';
  do {
    const p = await w.api('GET', `/monitors/${m}/results?limit=100${q}${cursor}`);
    out.push(...p.body.data);
    cursor = p.body.next_cursor ? `&cursor=${encodeURIComponent(p.body.next_cursor)}` : '';
  } while (cursor);
  return out.reverse();
};

const createMonitor = async (ws: typeof w, name: string) => {
  const r = await ws.api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'http',
      url: 'https://example.com/',
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 60,
    },
  });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body.id as string;
};

beforeAll(async () => {
  h = await startHarness(
    {},
    {
      wrapStore: (s: Store) =>
        new Proxy(s, {
          get(target, p, recv) {
            if (p === 'exportResultsPage')
              return (...args: Parameters<Store['exportResultsPage']>) => {
                pageReads++;
                return target.exportResultsPage(...args);
              };
            return Reflect.get(target, p, recv);
          },
        }),
    },
  );
  w = await h.workspace('export-e2e', 'business');
  other = await h.workspace('export-other', 'business');
  for (const n of ['a', 'b', 'c']) monitors.push(await createMonitor(w, n));
  monitors.sort();
  foreign = await createMonitor(other, 'theirs');
  const [a, b] = monitors as [string, string];
  const ws = w.workspace.id;
  // Results of two monitors, two locations, failures (one with a message a spreadsheet would run).
  await h.store.recordResults(
    [
      result(ws, a, 0),
      result(ws, a, 60, {
        location: 'us-east',
        ok: false,
        error_kind: 'http_status',
        error_message: '=HYPERLINK("x")',
        status_code: 500,
      }),
      result(ws, b, 30),
      result(ws, b, 90, {
        ok: false,
        error_kind: 'timeout',
        error_message: 'timed out, after 10 s',
        status_code: null,
        timings: null,
      }),
      result(other.workspace.id, foreign, 30),
    ],
    () => null,
  );
  // Folded into the results table by the flush; the next ones stay waiting for it.
  await h.store.recordResults(
    [result(other.workspace.id, foreign, 40, { received_at: new Date(T) })],
    () => null,
  );
  await h.store.pruneResults(new Date(T + 1), 100);
  await h.store.recordResults(
    [result(ws, a, 120), result(ws, b, 120, { location: 'us-east' }), result(ws, a, 7200)],
    () => null,
  );
}, 60_000);
afterAll(() => h.close());

const window = `from=${iso(0)}&to=${iso(3600)}`;

describe('results export', () => {
  it('gives every result of the window once as NDJSON, monitor by monitor then by time, each as GET /monitors/{id}/results gives it', async () => {
    const r = await w.api('GET', `/export/results?${window}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(r.headers['content-disposition']).toBe(
      'attachment; filename="export-e2e-results-20260501-20260501.ndjson"',
    );
    const [a, b, c] = monitors as [string, string, string];
    const want = [
      ...(await listed(a, `&since=${iso(0)}&until=${iso(3600)}`)),
      ...(await listed(b, `&since=${iso(0)}&until=${iso(3600)}`)),
      ...(await listed(c)),
    ];
    expect(want).toHaveLength(6);
    expect(lines(r.text)).toEqual(want);
    expect(lines(r.text).map((x) => [x.monitor_id, x.scheduled_at])).toEqual([
      [a, iso(0)],
      [a, iso(60)],
      [a, iso(120)],
      [b, iso(30)],
      [b, iso(90)],
      [b, iso(120)],
    ]);
  });

  it('filters by monitor, location, outcome and window', async () => {
    const [a, b, c] = monitors as [string, string, string];
    const get = async (q: string) => lines((await w.api('GET', `/export/results?${q}`)).text);
    expect((await get(`${window}&monitor_id=${b}&monitor_id=${c}`)).map((x) => x.monitor_id)).toEqual([
      b,
      b,
      b,
    ]);
    expect((await get(`${window}&location=us-east`)).map((x) => [x.monitor_id, x.scheduled_at])).toEqual([
      [a, iso(60)],
      [b, iso(120)],
    ]);
    expect((await get(`${window}&ok=false`)).map((x) => x.error_kind)).toEqual(['http_status', 'timeout']);
    expect((await get(`from=${iso(60)}&to=${iso(120)}`)).map((x) => x.scheduled_at)).toEqual([
      iso(60),
      iso(90),
    ]);
    expect(await get(`from=${iso(3600)}&to=${iso(7200)}&monitor_id=${a}`)).toEqual([]);
    expect(
      (await get(`from=${iso(3600)}&to=${iso(7201)}&monitor_id=${a}`)).map((x) => x.scheduled_at),
    ).toEqual([iso(7200)]);
  });

  it('gives CSV with the same fields as columns, nested ones as JSON, formulas made harmless', async () => {
    const [a] = monitors as [string];
    const r = await w.api('GET', `/export/results?from=${iso(60)}&to=${iso(61)}&monitor_id=${a}&format=csv`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="export-e2e-results-.*\.csv"$/);
    const [item] = await listed(a, `&since=${iso(60)}&until=${iso(61)}`);
    const x = item as Record<string, unknown>;
    expect(r.text).toBe(
      'id,monitor_id,monitor_version,location,instance_id,scheduled_at,started_at,received_at,ok,error_kind,' +
        'error_message,response_time_ms,status_code,timings,tls_valid_to,domain_expires_at,dns_records,run_now_request_id\r\n' +
        `${x.id},${a},1,us-east,agent-1,${iso(60)},${iso(60)},2026-06-01T11:00:00.000Z,false,http_status,` +
        `"'=HYPERLINK(""x"")",120,500,"{""dns_ms"":1,""connect_ms"":2,""tls_ms"":3,""first_byte_ms"":50,""total_ms"":120}",,,[],\r\n`,
    );
    const all = await w.api('GET', `/export/results?${window}&format=csv`);
    expect(all.text.split('\r\n')).toHaveLength(1 + 6 + 1);
    expect(all.text).toContain('"timed out, after 10 s"');
  });

  it('is a viewer read; no key is 401; bad input is one 422 naming every field; another workspace’s monitor is 404', async () => {
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('GET', `/export/results?${window}`)).status).toBe(200);
    expect((await w.as(viewer.key)('GET', `/export/alerts?${window}`)).status).toBe(200);
    const anonymous = await h.request('GET', `/api/v1/export/results?${window}`, { host: w.host });
    expect(anonymous.status).toBe(401);
    const bad = await w.api(
      'GET',
      `/export/results?from=yesterday&to=${iso(0)}&format=xlsx&ok=maybe&location=&extra=1&${Array.from(
        { length: 101 },
        () => `monitor_id=${randomUUID()}`,
      ).join('&')}`,
    );
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['extra', 'format', 'from', 'location', 'monitor_id', 'ok']);
    expect(fields(await w.api('GET', '/export/results'))).toEqual(['from', 'to']);
    expect(fields(await w.api('GET', `/export/results?from=${iso(60)}&to=${iso(0)}`))).toEqual(['to']);
    expect(fields(await w.api('GET', `/export/results?from=${iso(0)}&to=2027-06-01T00:00:00Z`))).toEqual([
      'to',
    ]);
    expect(fields(await w.api('GET', `/export/alerts?${window}&status=gone&source_type=x`))).toEqual([
      'source_type',
      'status',
    ]);
    const theirs = await w.api(
      'GET',
      `/export/results?${window}&monitor_id=${monitors[0]}&monitor_id=${foreign}`,
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.details).toEqual([
      { field: 'monitor_id', message: `no monitor with id ${foreign} in the workspace` },
    ]);
    // Their results never show in this workspace's export, and theirs holds only theirs.
    expect(
      lines((await other.api('GET', `/export/results?${window}`)).text).map((x) => x.monitor_id),
    ).toEqual([foreign, foreign]);
  });
});

describe('alerts export', () => {
  it('gives the alerts created in the window oldest first, as GET /alerts gives them, NDJSON or CSV, with its filters', async () => {
    const raise = (ws: string, s: number, over: Partial<Alert> = {}) =>
      h.store.raiseAlert({
        id: randomUUID(),
        workspace_id: ws,
        source_type: 'integration',
        source_id: 'hook',
        cause: 'webhook',
        dedup_key: randomUUID(),
        title: '+1 disk full',
        description: null,
        severity: 'critical',
        status: 'open',
        escalation_policy_id: null,
        created_at: new Date(T + s * 1000),
        updated_at: new Date(T + s * 1000),
        acknowledged_at: null,
        acknowledged_by: null,
        resolved_at: null,
        resolved_by: null,
        escalation: null,
        escalation_due_at: null,
        held_back: 0,
        ...over,
      });
    for (let i = 0; i < 5; i++) await raise(w.workspace.id, i * 60, { source_id: i % 2 ? 'odd' : 'even' });
    await raise(other.workspace.id, 30);
    const listedAlerts = (await w.api('GET', `/alerts?limit=100&since=${iso(0)}&until=${iso(3600)}`)).body
      .data;
    expect(listedAlerts).toHaveLength(5);
    const r = await w.api('GET', `/export/alerts?${window}`);
    expect(r.headers['content-disposition']).toBe(
      'attachment; filename="export-e2e-alerts-20260501-20260501.ndjson"',
    );
    expect(lines(r.text)).toEqual([...listedAlerts].reverse());
    const odd = lines(
      (await w.api('GET', `/export/alerts?${window}&source_id=odd&status=open,resolved`)).text,
    );
    expect(odd.map((a) => a.created_at)).toEqual([iso(60), iso(180)]);
    expect(lines((await w.api('GET', `/export/alerts?${window}&status=resolved`)).text)).toEqual([]);
    const csv = await w.api('GET', `/export/alerts?from=${iso(0)}&to=${iso(1)}&format=csv`);
    const [header, row, end] = csv.text.split('\r\n');
    expect(header).toBe(
      'id,source_type,source_id,cause,dedup_key,title,description,severity,status,escalation_policy_id,created_at,updated_at,acknowledged_at,acknowledged_by,resolved_at,resolved_by,escalation,held_back',
    );
    const first = listedAlerts[listedAlerts.length - 1];
    expect(row).toBe(
      `${first.id},integration,even,webhook,${first.dedup_key},"'+1 disk full",,critical,open,,${iso(0)},${iso(0)},,,,,,0`,
    );
    expect(end).toBe('');
  });
});

describe('streaming', () => {
  /** Resolves once the page count has not moved for a second (or after 30 s): the reads it settled at. */
  const settled = async (from: number) => {
    let last = -1;
    for (let i = 0; i < 120; i++) {
      await new Promise((r) => setTimeout(r, 250));
      if (pageReads === last && i >= 4) break;
      last = pageReads;
    }
    return pageReads - from;
  };

  it('reads the next page only when the client takes the last, and stops reading when the client goes away', async () => {
    const m = await createMonitor(w, 'busy');
    for (let batch = 0; batch < 40; batch++)
      await h.store.recordResults(
        Array.from({ length: 1000 }, (_, i) => result(w.workspace.id, m, batch * 1000 + i)),
        () => null,
      );
    // Folded, as results older than a few minutes are.
    await h.store.recordResults(
      [result(other.workspace.id, foreign, 50, { received_at: new Date(T) })],
      () => null,
    );
    await h.store.pruneResults(new Date(T + 1), 100);
    const path = `/api/v1/export/results?monitor_id=${m}&from=${iso(0)}&to=${iso(86_400)}`;
    const before = pageReads;
    let paused = 0;
    let gone = 0;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: h.cp.port, path, headers: { host: w.host, 'x-api-key': w.adminKey } },
        (res) => {
          res.once('data', async () => {
            // A client that stops reading: the buffers fill, and the server stops reading pages.
            res.pause();
            paused = await settled(before);
            // It reads a little more, then goes away: the server stops reading pages.
            res.resume();
            res.once('data', async () => {
              req.destroy();
              gone = await settled(before);
              resolve();
            });
          });
        },
      );
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    // 40,000 results are 80 pages of 500: the server read only what the socket's buffers hold (a few MB).
    expect(paused).toBeGreaterThan(0);
    expect(paused).toBeLessThan(40);
    expect(gone).toBeLessThan(60);
    // The server goes on serving; a whole export of the same results reads every page.
    const whole = await w.api('GET', path.slice('/api/v1'.length));
    expect(lines(whole.text)).toHaveLength(40_000);
    expect(pageReads - before - gone).toBe(81);
  }, 120_000);
});

describe('rate limits', () => {
  it('an export counts as any read: failed keys share the per-address allowance, then 429 with Retry-After', async () => {
    const limited = await startHarness({ auth_failures_per_minute: 3, trust_proxy: true });
    try {
      const lw = await limited.workspace('export-limits');
      const from = (path: string, key: string) =>
        limited.request('GET', `/api/v1${path}`, {
          host: lw.host,
          key,
          headers: { 'x-forwarded-for': '203.0.113.9' },
        });
      const exportPath = `/export/results?${window}`;
      expect((await from('/monitors', 'ak.wrong-1')).status).toBe(401);
      expect((await from(exportPath, 'ak.wrong-2')).status).toBe(401);
      expect((await from(`/export/alerts?${window}`, 'ak.wrong-3')).status).toBe(401);
      for (const path of [exportPath, '/monitors']) {
        const refused = await from(path, 'ak.wrong-again');
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('rate_limited');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      // A valid key is never limited by others' failures, for an export as for any read.
      expect((await from(exportPath, lw.adminKey)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
