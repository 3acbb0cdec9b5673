import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService } from '@lookout/proto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * The Regions page in Chromium at 1280 and 390 px against a real control plane: each region's health,
 * its agents (unnamed) with the check types each declared at Register, and a type of the workspace's
 * monitors that no agent of a region can run, said in words. Screenshots to /tmp/caps-regions-*.png.
 */
let lookout: Lookout;
let browser: Browser;

/** An agent of `region` that declares `checkTypes` at Register, over the real agent protocol. */
const agentOf = async (region: string, instanceId: string, checkTypes: string[]) => {
  const { token } = (await lookout.cli(['agent-token', 'create', '--region', region])) as { token: string };
  const client = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: lookout.rpcUrl,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    }),
  );
  await client.register({ instanceId, agentVersion: 'test', hostname: 'test', checkTypes });
};

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  await agentOf('eu-west', 'regions-eu-web', ['http', 'api']);
  await agentOf('eu-west', 'regions-eu-all', []);
  await agentOf('us-east', 'regions-us-web', ['http']);
  const r = await lookout.api(
    'demo',
    '/monitors/create',
    { 'x-api-key': lookout.apiKey },
    {
      method: 'POST',
      json: {
        display_name: 'Orders database port',
        monitor_type: 'tcp',
        url: 'db.example.com',
        port: 5432,
        check_locations: ['eu-west', 'us-east'],
      },
    },
  );
  expect(r.status, r.body).toBe(201);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('the Regions page', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: each region's agents with what they run, and the type no agent of a region can run`, async () => {
      const { context, page } = await signedInAt(browser, lookout, {
        email: lookout.adminEmail,
        password: lookout.password,
      });
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Regions' }).click();
      await page.waitForURL(lookout.url('demo', '/regions'));
      await page.getByRole('heading', { name: 'Regions', level: 1 }).waitFor();

      const problems = page.getByRole('list', { name: 'Monitors no agent can run' });
      await expect
        .poll(() => problems.textContent())
        .toBe('No agent in us-east can run tcp checks: 1 monitor of yours is not checked there.');
      const eu = page.getByRole('row', { name: /eu-west/ });
      // In a stable order (the server's): the agent that declared nothing runs the first types.
      await expect
        .poll(() => eu.textContent())
        .toMatch(/Agent 1, reporting:\s*runs http, api, dns, tcp, domain/);
      expect(await eu.textContent()).toMatch(/Agent 2, reporting:\s*runs http, api$/);
      // Nothing that names an agent: they belong to the operator.
      expect(await page.locator('main').textContent()).not.toMatch(/regions-eu|regions-us/);
      const us = page.getByRole('row', { name: /us-east/ });
      expect(await us.textContent()).toMatch(/runs httpNone runs tcp \(1 monitor not checked here\)$/);
      // Nothing wider than the window (a phone scrolls down, never sideways).
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `/tmp/caps-regions-${width}.png`, fullPage: true });
      await context.close();
    });
  }

  it('the monitor form says which region has no agent for the chosen type', async () => {
    const { context, page } = await signedInAt(
      browser,
      lookout,
      { email: lookout.adminEmail, password: lookout.password },
      '/monitors/new',
    );
    const form = page.getByRole('form', { name: 'New monitor' });
    await form.getByLabel('Type').selectOption('tcp');
    const us = form.getByRole('checkbox', { name: /us-east/ });
    await expect
      .poll(async () => (await us.count()) === 1 && us.evaluate((b) => b.parentElement?.textContent?.trim()))
      .toBe('us-east (no agent here runs tcp checks)');
    expect(
      await form
        .getByRole('checkbox', { name: /eu-west/ })
        .evaluate((b) => b.parentElement?.textContent?.trim()),
    ).toBe('eu-west');
    await form.getByLabel('Type').selectOption('http');
    await expect.poll(() => us.evaluate((b) => b.parentElement?.textContent?.trim())).toBe('us-east');
    await context.close();
  });
});
