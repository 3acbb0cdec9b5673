import type { Assertion } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopApp, startShopApp } from '../../../test/support/shop-app.js';
import { CheckDeadline, probeWithDeadline } from '../deadline.js';
import type { ProbeSpec, Step } from '../probe-port.js';
import { realTimers } from '../scheduler.js';
import { createMultistepProber } from './multistep-prober.js';

let shop: ShopApp;
beforeAll(async () => {
  shop = await startShopApp();
});
afterAll(() => shop.close());

const status = (n: number): Assertion => ({
  source: 'status_code',
  property: '',
  comparison: 'equals',
  target: String(n),
});
const step = (s: Partial<Step> & Pick<Step, 'name' | 'url'>): Step => ({
  method: 'GET',
  headers: {},
  body: null,
  timeout_ms: null,
  extract: [],
  assertions: [],
  ...s,
});

/** Sign in, create an order, read it back, pay: the journey of the tests and the e2e. */
const journey = (): Step[] => [
  step({
    name: 'Sign in',
    method: 'POST',
    url: '{{url}}/login',
    headers: { 'content-type': 'application/json' },
    body: '{"user": "ann", "password": "{{secrets.SHOP_PASSWORD}}"}',
    extract: [{ name: 'token', source: 'json_body', property: '$.token', regex: null }],
    assertions: [status(200)],
  }),
  step({
    name: 'Create order',
    method: 'POST',
    url: '{{url}}/orders',
    headers: { Authorization: 'Bearer {{token}}' },
    extract: [
      { name: 'order', source: 'headers', property: 'Location', regex: '/orders/(\\d+)' },
      { name: 'body_id', source: 'json_body', property: '$.id', regex: null },
    ],
    assertions: [status(201)],
  }),
  step({
    name: 'Read order',
    url: '{{url}}/orders/{{order}}',
    headers: { Authorization: 'Bearer {{ token }}' },
    assertions: [
      { source: 'json_body', property: '$.status', comparison: 'equals', target: 'created' },
      { source: 'json_body', property: '$.id', comparison: 'equals', target: '{{body_id}}' },
    ],
  }),
  step({ name: 'Pay', method: 'POST', url: '{{url}}/pay', assertions: [status(200)] }),
];

const SECRET = 'hunter2-very-secret';
const spec = (steps: Step[], over: Partial<ProbeSpec<'multistep'>> = {}): ProbeSpec<'multistep'> => ({
  monitor_id: 'm1',
  monitor_type: 'multistep',
  url: shop.url,
  timeout_ms: 5000,
  settings: { steps, secrets: { SHOP_PASSWORD: SECRET } },
  ...over,
});

describe('multi-step prober against a local shop', () => {
  it('signs in, creates an order, reads it back and pays: each step timed, the last status kept', async () => {
    shop.password = SECRET;
    const steps = journey();
    // Assertion targets are not templates: this one compares with the text as written.
    steps[2]!.assertions = steps[2]!.assertions.slice(0, 1);
    // {{url}} drops the monitor URL's trailing /, so {{url}}/login stays /login.
    const out = await createMultistepProber().run(spec(steps, { url: `${shop.url}/` }), new CheckDeadline());
    expect(out.error).toBeNull();
    expect(out.ok).toBe(true);
    expect(out.status_code).toBe(200);
    expect(out.script?.failed_step).toBeNull();
    expect(out.script?.steps.map((s) => [s.name, s.ok, s.status_code, s.error])).toEqual([
      ['Sign in', true, 200, null],
      ['Create order', true, 201, null],
      ['Read order', true, 200, null],
      ['Pay', true, 200, null],
    ]);
    const sum = out.script!.steps.reduce((a, s) => a + s.duration_ms, 0);
    expect(out.response_time_ms).toBeGreaterThanOrEqual(sum);
    expect(out.script).toMatchObject({
      error_line: null,
      web_vitals: null,
      console_errors: [],
      failed_requests: [],
      screenshot: null,
    });
  });

  it("names the failed step in the http check's words and stops there", async () => {
    shop.password = null;
    shop.failing = true;
    const before = shop.hits.get('GET /orders/:id') ?? 0;
    const steps = journey();
    steps[2]!.assertions = [];
    steps.push(step({ name: 'Never', url: '{{url}}/orders/1' }));
    try {
      const out = await createMultistepProber().run(spec(steps), new CheckDeadline());
      expect(out.ok).toBe(false);
      expect(out.error).toEqual({
        kind: 'status_mismatch',
        message: "step 4 'Pay' failed: expected status 200, got 502",
      });
      expect(out.status_code).toBe(502);
      expect(out.script?.failed_step).toBe(4);
      expect(out.script?.steps).toHaveLength(4);
      expect(out.script?.steps[3]).toMatchObject({
        name: 'Pay',
        ok: false,
        status_code: 502,
        error: 'expected status 200, got 502',
      });
      expect(shop.hits.get('GET /orders/:id')).toBe(before + 1);
    } finally {
      shop.failing = false;
    }
  });

  it('a step without a status assertion fails on 4xx and 5xx; an assertion failure uses its own words', async () => {
    const out = await createMultistepProber().run(
      spec([step({ name: 'Orders', method: 'POST', url: '{{url}}/orders' })]),
      new CheckDeadline(),
    );
    expect(out.error?.message).toBe("step 1 'Orders' failed: expected a status below 400, got 401");
    const json = await createMultistepProber().run(
      spec([
        step({
          name: 'Sign in',
          method: 'POST',
          url: '{{url}}/login',
          body: '{}',
          assertions: [{ source: 'json_body', property: '$.token', comparison: 'is_empty', target: '' }],
        }),
      ]),
      new CheckDeadline(),
    );
    expect(json.error?.kind).toBe('assertion_failed');
    expect(json.error?.message).toMatch(
      /^step 1 'Sign in' failed: \$\.token was "tok-\d+-\w+", expected is_empty$/,
    );
  });

  it('an extraction that finds nothing fails its step, naming the variable', async () => {
    const out = await createMultistepProber().run(
      spec([
        step({
          name: 'Sign in',
          method: 'POST',
          url: '{{url}}/login',
          body: '{}',
          extract: [{ name: 'token', source: 'json_body', property: '$.access_token', regex: null }],
        }),
      ]),
      new CheckDeadline(),
    );
    expect(out.error).toEqual({
      kind: 'extract_failed',
      message: "step 1 'Sign in' failed: could not extract token: $.access_token found nothing in the body",
    });
  });

  it('never reports a secret or an extracted value: a failing body that echoes them shows ••••', async () => {
    const out = await createMultistepProber().run(
      spec([
        step({
          name: 'Echo',
          method: 'POST',
          url: '{{url}}/echo',
          body: `password={{secrets.SHOP_PASSWORD}}`,
          extract: [{ name: 'pw', source: 'text_body', property: null, regex: 'password=(.+)' }],
        }),
        step({
          name: 'Check',
          method: 'POST',
          url: '{{url}}/echo',
          body: 'again {{pw}} and {{secrets.SHOP_PASSWORD}}',
          assertions: [{ source: 'text_body', property: '', comparison: 'equals', target: 'nope' }],
        }),
      ]),
      new CheckDeadline(),
    );
    expect(out.error?.message).toBe(
      `step 2 'Check' failed: text_body was "again •••• and ••••", expected equals "nope"`,
    );
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });

  it('caps a step at 1 MiB of body and a run at 5 MiB', async () => {
    const big = await createMultistepProber().run(
      spec([step({ name: 'Big', url: `{{url}}/big?bytes=${(1 << 20) + 1}` })]),
      new CheckDeadline(),
    );
    expect(big.error).toEqual({
      kind: 'response_too_large',
      message: "step 1 'Big' failed: response larger than 1 MiB",
    });
    const exactly = await createMultistepProber().run(
      spec([step({ name: 'Big', url: `{{url}}/big?bytes=${1 << 20}` })]),
      new CheckDeadline(),
    );
    expect(exactly.ok).toBe(true);
    // A body without end stops being read at the cap: the step fails on its size, not at its timeout.
    const endless = await createMultistepProber().run(
      spec([step({ name: 'Endless', url: '{{url}}/endless', timeout_ms: 30_000 })], { timeout_ms: 30_000 }),
      new CheckDeadline(),
    );
    expect(endless.error).toEqual({
      kind: 'response_too_large',
      message: "step 1 'Endless' failed: response larger than 1 MiB",
    });
    const many = Array.from({ length: 6 }, (_, i) =>
      step({ name: `Big ${i + 1}`, url: `{{url}}/big?bytes=${1 << 20}` }),
    );
    const run = await createMultistepProber().run(spec(many), new CheckDeadline());
    expect(run.error).toEqual({
      kind: 'response_too_large',
      message: "step 6 'Big 6' failed: the run read more than 5 MiB of responses",
    });
    expect(run.script?.steps.map((s) => s.ok)).toEqual([true, true, true, true, true, false]);
  });

  it('with blockPrivate, a step to a blocked address fails cleanly, naming the guard, and sends nothing', async () => {
    const before = shop.hits.get('POST /login') ?? 0;
    const out = await createMultistepProber({ blockPrivate: true }).run(
      spec([step({ name: 'Sign in', method: 'POST', url: '{{url}}/login', body: '{}' })]),
      new CheckDeadline(),
    );
    expect(out.error).toEqual({
      kind: 'blocked_target',
      message: "step 1 'Sign in' failed: EBLOCKED: 127.0.0.1 is not an allowed destination",
    });
    const named = await createMultistepProber({ blockPrivate: true }).run(
      spec([step({ name: 'Local', url: `http://localhost:${shop.port}/pay` })]),
      new CheckDeadline(),
    );
    expect(named.error?.kind).toBe('blocked_target');
    expect(shop.hits.get('POST /login') ?? 0).toBe(before);
  });

  it("a step's own timeout and the check's deadline each end the step under way", async () => {
    const own = await createMultistepProber().run(
      spec([step({ name: 'Slow', url: '{{url}}/slow', timeout_ms: 100 })]),
      new CheckDeadline(),
    );
    expect(own.error).toEqual({
      kind: 'timeout',
      message: "step 1 'Slow' failed: timed out after 100 ms (the step's timeout)",
    });
    const check = await probeWithDeadline(
      createMultistepProber(),
      spec(
        [
          step({ name: 'Pay', method: 'POST', url: '{{url}}/pay' }),
          step({ name: 'Slow', url: '{{url}}/slow', timeout_ms: 60_000 }),
        ],
        {
          timeout_ms: 200,
        },
      ),
      realTimers,
    );
    expect(check.error).toEqual({
      kind: 'timeout',
      message: "step 2 'Slow' failed: timed out (the check's timeout)",
    });
    expect(check.script?.steps[0]?.ok).toBe(true);
    // The failed step got no answer: the run has no status, not the step before's.
    expect(check.status_code).toBeUndefined();
  });

  it('a URL that is not http(s) once filled in, or a secret not given, fails its step', async () => {
    const out = await createMultistepProber().run(
      spec([step({ name: 'File', url: 'file:///etc/passwd' })]),
      new CheckDeadline(),
    );
    expect(out.error).toEqual({
      kind: 'bad_url',
      message: "step 1 'File' failed: the URL is file: one, not http(s)",
    });
    const missing = await createMultistepProber().run(
      spec([step({ name: 'A', url: '{{url}}/pay', body: '{{secrets.OTHER}}' })]),
      new CheckDeadline(),
    );
    expect(missing.error?.message).toBe("step 1 'A' failed: the secret OTHER is not available to this check");
  });

  it('an extracted value cannot inject a header line: the step fails on it, showing no value', async () => {
    const before = shop.hits.get('POST /orders') ?? 0;
    const out = await createMultistepProber().run(
      spec([
        step({
          name: 'Echo',
          method: 'POST',
          url: '{{url}}/echo',
          body: 'token=abcd\r\nX-Admin: yes',
          extract: [{ name: 'token', source: 'text_body', property: null, regex: 'token=([\\s\\S]+)' }],
        }),
        step({
          name: 'Order',
          method: 'POST',
          url: '{{url}}/orders',
          headers: { Authorization: 'Bearer {{token}}' },
        }),
      ]),
      new CheckDeadline(),
    );
    expect(out.error?.kind).toBe('error');
    expect(out.error?.message).toMatch(
      /^step 2 'Order' failed: ERR_INVALID_CHAR: Invalid character in header content \["authorization"\]$/,
    );
    expect(shop.hits.get('POST /orders') ?? 0).toBe(before);
  });
});
