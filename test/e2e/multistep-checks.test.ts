import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, startAgentProcess } from '../support/processes.js';
import { type ShopApp, startShopApp } from '../support/shop-app.js';
import { waitFor } from '../support/wait.js';

/**
 * Multi-step API checks end to end: created through the API, run by a real agent process against a
 * local shop (test/support/shop-app.ts: sign in, create an order, read it back, pay), down with an
 * alert naming the failing step when /pay answers 502, and resolved when it answers again; and the
 * API's 422 on steps whose variables, templates, extracts, names or URLs are wrong.
 */
let h: Harness;
let shop: ShopApp;
let agent: ChildProcess | undefined;
/** us-east's agent runs as a hosted one: the SSRF guard on. */
let guarded: ChildProcess | undefined;

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 100 },
    { clock: systemClock },
  );
  shop = await startShopApp();
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  agent = (await startAgentProcess({ rpcUrl: h.cp.rpcUrl, token, region: 'eu-west', instance: 'eu-1' }))
    .child;
  const usToken = (await createAgentToken(h.store, h.config.regions, { region: 'us-east' }, new Date()))
    .value;
  guarded = (
    await startAgentProcess({
      rpcUrl: h.cp.rpcUrl,
      token: usToken,
      region: 'us-east',
      instance: 'us-1',
      env: { LOOKOUT_AGENT_BLOCK_PRIVATE_TARGETS: 'true' },
    })
  ).child;
});
afterAll(async () => {
  for (const a of [agent, guarded]) a?.kill('SIGTERM');
  for (const a of [agent, guarded]) if (a) await exited(a);
  await shop?.close();
  await h?.close();
});

const status = (n: number) => ({ source: 'status_code', comparison: 'equals', target: n });
const STEPS = [
  {
    name: 'Sign in',
    method: 'POST',
    url: '{{url}}/login',
    headers: { 'Content-Type': 'application/json' },
    body: '{"user": "ann", "password": "correct horse"}',
    extract: [{ name: 'token', source: 'json_body', property: '$.token' }],
    assertions: [status(200)],
  },
  {
    name: 'Create order',
    method: 'POST',
    url: '{{url}}/orders',
    headers: { Authorization: 'Bearer {{token}}' },
    extract: [{ name: 'order', source: 'headers', property: 'Location', regex: '/orders/(\\d+)' }],
    assertions: [status(201)],
  },
  {
    name: 'Read order',
    method: 'GET',
    url: '{{url}}/orders/{{order}}',
    headers: { Authorization: 'Bearer {{token}}' },
    assertions: [{ source: 'json_body', property: '$.status', comparison: 'equals', target: 'created' }],
  },
  { name: 'Pay', method: 'POST', url: '{{url}}/pay', assertions: [status(200)] },
];

interface ResultJson {
  ok: boolean;
  error_message: string | null;
  status_code: number | null;
}

describe('multi-step checks run by a real agent', () => {
  it('signs in, creates an order and reads it back; a failing step raises an alert naming it, and it resolves', async () => {
    const w = await h.workspace('multistep-e2e', 'e2e');
    const password = 'correct horse battery';
    shop.password = password;
    // The password as a workspace secret where this build has them (the route lands with them; the
    // prober's own test covers the secret without it): then it never shows in a result or an alert.
    const put = await w.api('PUT', '/secrets/SHOP_PASSWORD', { json: { value: password } });
    const secret = put.status === 201 || put.status === 200;
    const signIn = {
      ...STEPS[0],
      body: `{"user": "ann", "password": "${secret ? '{{secrets.SHOP_PASSWORD}}' : password}"}`,
    };
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Checkout',
        monitor_type: 'multistep',
        url: shop.url,
        steps: [signIn, ...STEPS.slice(1)],
        check_interval_seconds: 1,
        timeout_seconds: 1,
        failure_threshold: 1,
        check_locations: ['eu-west'],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const results = () =>
      w.api('GET', `/monitors/${id}/results?limit=100`).then((r) => r.body.data as ResultJson[]);
    const ok = await waitFor(results, (rs) => rs.some((r) => r.ok), { what: 'an ok multistep result' });
    expect(ok.find((r) => r.ok)).toMatchObject({ ok: true, error_message: null, status_code: 200 });
    expect(shop.hits.get('GET /orders/:id')).toBeGreaterThan(0);

    shop.failing = true;
    const alerts = () =>
      w
        .api('GET', `/alerts?source_id=${id}`)
        .then((r) => r.body.data as { status: string; description: string | null }[]);
    const raised = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), { what: 'an alert' });
    expect(raised).toHaveLength(1);
    expect(raised[0]!.description).toContain("step 4 'Pay' failed: expected status 200, got 502");
    expect((await results()).find((r) => !r.ok)).toMatchObject({
      error_message: "step 4 'Pay' failed: expected status 200, got 502",
      status_code: 502,
    });

    shop.failing = false;
    await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), { what: 'the alert resolved' });
    if (secret) {
      const seen = JSON.stringify([
        await results(),
        await alerts(),
        (await w.api('GET', `/monitors/${id}`)).body,
      ]);
      expect(seen).not.toContain(password);
    }
  });

  it('refuses steps with unknown variables, malformed templates, bad extracts, repeated names and non-http URLs, naming every field', async () => {
    const w = await h.workspace('multistep-422', 'e2e');
    const r = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Bad steps',
        monitor_type: 'multistep',
        url: 'https://shop.example.com',
        steps: [
          {
            name: 'Sign in',
            method: 'POST',
            url: '{{url}}/login',
            body: '{"a": "{{token"}',
            extract: [
              { name: 'token', source: 'json_body' },
              { name: 'id', source: 'text_body', regex: '(a)(b)' },
            ],
          },
          {
            name: 'Order',
            method: 'GET',
            url: 'https://shop.example.com/{{tokn}}',
            headers: { 'X-A': '{{}}' },
          },
          { name: 'Order', method: 'GET', url: 'ftp://shop.example.com/x' },
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([
      { field: 'steps[0].body', message: 'has {{ without its closing }}' },
      { field: 'steps[0].extract[0].property', message: 'is required for json_body' },
      {
        field: 'steps[0].extract[1].regex',
        message: 'must have exactly one capture group (the value taken), it has 2',
      },
      { field: 'steps[1].url', message: 'uses {{tokn}}, which no earlier step extracts' },
      { field: 'steps[1].headers.X-A', message: 'has an empty {{}}: name a variable inside' },
      { field: 'steps[2].name', message: "'Order' is the name of step 2 too: each step needs its own name" },
      { field: 'steps[2].url', message: 'must be an http:// or https:// URL' },
    ]);
    // A field the schema refuses and one the rules refuse: both in the one answer.
    const both = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Bad steps',
        monitor_type: 'multistep',
        url: 'https://shop.example.com',
        steps: [{ name: 'A', method: 'FETCH', url: '{{url}}/{{token}}' }],
      },
    });
    expect(both.status).toBe(422);
    expect(both.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'steps[0].method',
      'steps[0].url',
    ]);
    const list = await w.api('GET', '/monitors');
    expect(list.body.data).toEqual([]);

    // A patch is checked against the steps as they would stand.
    const good = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Good steps',
        monitor_type: 'multistep',
        url: 'https://shop.example.com',
        steps: STEPS,
      },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    const patched = await w.api('PATCH', `/monitors/${good.body.id}`, {
      json: { steps: [STEPS[2], STEPS[0]] },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.error.details).toEqual([
      {
        field: 'steps[0].url',
        message: 'uses {{order}}, which no earlier step extracts',
      },
      {
        field: 'steps[0].headers.Authorization',
        message: "uses {{token}}, which no earlier step extracts ('Sign in' extracts it later)",
      },
    ]);
  });

  it("creates the README's example as pasted", async () => {
    const w = await h.workspace('multistep-readme', 'e2e');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('## Multi-step API checks');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const [secret, monitor] = [...section.matchAll(/-d '([^']*)'/g)].map((m) => JSON.parse(m[1]!));
    // The secret first, where this build has secrets (the route lands with them).
    await w.api('PUT', '/secrets/SHOP_PASSWORD', { json: secret });
    const r = await w.api('POST', '/monitors/create', { json: monitor });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.steps).toHaveLength(3);
  });

  it('an agent with the SSRF guard on refuses a step to a loopback address, naming the step and the guard', async () => {
    const w = await h.workspace('multistep-ssrf', 'e2e');
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Inner shop',
        monitor_type: 'multistep',
        url: `http://localhost:${shop.port}`,
        steps: STEPS,
        check_interval_seconds: 1,
        timeout_seconds: 1,
        check_locations: ['us-east'],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [result] = await waitFor(
      () =>
        w
          .api('GET', `/monitors/${created.body.id}/results?limit=10`)
          .then((r) => r.body.data as (ResultJson & { error_kind: string | null })[]),
      (rs) => rs.length > 0,
      { what: 'a multistep result from the guarded agent' },
    );
    expect(result).toMatchObject({
      ok: false,
      error_kind: 'blocked_target',
      error_message: "step 1 'Sign in' failed: EBLOCKED: localhost is not an allowed destination",
    });
  });
});
