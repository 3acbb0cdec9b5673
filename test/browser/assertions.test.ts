import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout, testAgent } from './support.js';

/**
 * Assertions in Chromium: a monitor's page lists what each check verifies (its expected status code
 * as the assertion it is, then its own assertions), and a failed assertion's message is in its
 * recent results. The result comes from a test agent through the real ingestion path. Screenshots to
 * /tmp/assert-*.png at 1280 and 390 px.
 */
let lookout: Lookout;
let browser: Browser;

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('assertions in the web app', () => {
  it('the monitor page lists what is checked and says which assertion failed', async () => {
    const r = await lookout.api(
      'demo',
      '/monitors/create',
      { 'x-api-key': lookout.apiKey },
      {
        method: 'POST',
        json: {
          display_name: 'Orders API',
          monitor_type: 'api',
          url: 'https://orders.example.com/health',
          http_method: 'GET',
          expected_status_code: 200,
          check_interval_seconds: 60,
          check_locations: ['eu-west'],
          assertions: [
            { source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' },
            { source: 'headers', property: 'content-type', comparison: 'contains', target: 'json' },
            { source: 'response_time', comparison: 'less_than', target: 800 },
          ],
        },
      },
    );
    expect(r.status, r.body.slice(0, 300)).toBe(201);
    const m = JSON.parse(r.body);
    const agent = await testAgent(lookout, 'eu-west');
    await agent.report([
      { monitorId: m.id, at: new Date(), ok: false, error: '$.status was "degraded", expected equals "ok"' },
    ]);

    const admin = { email: lookout.adminEmail, password: lookout.password };
    const { page } = await signedInAt(browser, lookout, admin, `/monitors/${m.id}`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const checks = page.getByRole('region', { name: 'What each check verifies' });
    await expect
      .poll(() => checks.getByRole('listitem').allTextContents())
      .toEqual([
        'status code equals 200',
        '$.status equals "ok"',
        'header content-type contains "json"',
        'response time (ms) less than 800',
      ]);
    const results = page.getByRole('region', { name: 'Recent results' });
    await results.getByText('$.status was "degraded", expected equals "ok"').waitFor();
    await page.screenshot({ path: '/tmp/assert-detail-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/assert-detail-390.png', fullPage: true });
  });
});
