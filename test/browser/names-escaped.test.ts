import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localhostFetch } from '../support/oauth-client.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * A name with markup is allowed and shown as text on every page that shows names: the literal text is
 * visible, no element is made from it and nothing runs. Every kind of name is set to it: a monitor,
 * a heartbeat, an alert (from an integration's event), an escalation policy, a channel, an
 * integration, a maintenance window, an API key, a status page with its component and incident, and
 * an OAuth client (its consent page and Connected apps).
 */
const NAME = '<img src=x onerror=alert(1)><b>bold</b> & co';

let lookout: Lookout;
let browser: Browser;
let callback: Server;
let redirect: string;
const ids: Record<string, string> = {};

const post = async (path: string, json: unknown, headers: Record<string, string> = {}) => {
  const r = await lookout.api(
    'demo',
    path,
    { 'x-api-key': lookout.apiKey, ...headers },
    { method: 'POST', json },
  );
  expect(r.status, r.body).toBeLessThan(300);
  return JSON.parse(r.body);
};

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  callback = createServer((_req, res) => res.end('Connected.'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;

  ids.monitor = (
    await post('/monitors/create', {
      display_name: NAME,
      monitor_type: 'http',
      url: 'https://example.com/',
      http_method: 'GET',
      expected_status_code: 200,
    })
  ).id;
  ids.heartbeat = (await post('/heartbeats', { display_name: NAME })).id;
  const channel = await post('/channels', {
    name: NAME,
    type: 'webhook',
    config: { url: 'https://hooks.example.com/x' },
  });
  await post('/escalation-policies', {
    name: NAME,
    steps: [{ wait_minutes: 0, notify_channel_ids: [channel.id] }],
  });
  await post('/maintenance-windows', {
    name: NAME,
    scope_type: 'workspace',
    starts_at: '2030-01-01T00:00:00Z',
    ends_at: '2030-01-01T01:00:00Z',
  });
  const integration = await post('/integrations', { name: NAME, kind: 'webhook' });
  await post(
    '/integrations/webhook/events',
    { title: NAME, dedup_key: 'markup' },
    {
      authorization: `Bearer ${integration.service_key}`,
    },
  );
  const statusPage = await post('/status-pages', {
    name: NAME,
    slug: 'markup',
    components: [{ name: NAME, monitor_id: ids.monitor }],
  });
  ids.statusPage = statusPage.id;
  await post(`/status-pages/${statusPage.id}/incidents`, {
    title: NAME,
    message: NAME,
    components: { [statusPage.components[0].id]: 'partial_outage' },
  });
  const alerts = await lookout.api('demo', '/alerts', { 'x-api-key': lookout.apiKey });
  ids.alert = JSON.parse(alerts.body).data[0].id;
  await lookout.cli([
    'api-key',
    'create',
    '--workspace',
    'demo',
    '--email',
    lookout.adminEmail,
    '--name',
    NAME,
    '--expiry',
    'none',
  ]);
});
afterAll(async () => {
  callback?.close();
  await browser?.close();
  await lookout?.stop();
});

/** The name is on the page as text; no element was made from it; no dialog opened. */
const expectShownAsText = async (page: Page, dialogs: string[], where: string) => {
  await page.getByText(NAME).filter({ visible: true }).first().waitFor();
  expect(await page.locator('img[src="x"]').count(), where).toBe(0);
  expect(await page.locator('main b', { hasText: 'bold' }).count(), where).toBe(0);
  expect(dialogs, where).toEqual([]);
};

describe('a name with markup in the web app', () => {
  it('every page that lists or shows one shows it as text', async () => {
    const { context, page } = await signedInAt(browser, lookout, {
      email: lookout.adminEmail,
      password: lookout.password,
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    for (const path of [
      '/monitors',
      `/monitors/${ids.monitor}`,
      '/heartbeats',
      `/heartbeats/${ids.heartbeat}`,
      '/alerts',
      `/alerts/${ids.alert}`,
      '/routing/escalation-policies',
      '/routing/channels',
      '/routing/integrations',
      '/routing/maintenance',
      '/settings/api-keys',
      '/status-pages',
      `/status-pages/${ids.statusPage}`,
    ]) {
      await page.goto(lookout.url('demo', path));
      await expectShownAsText(page, dialogs, path);
    }
    await page.goto(lookout.url('demo', `/monitors/${ids.monitor}`));
    await page.getByText(NAME).filter({ visible: true }).first().waitFor();
    await page.screenshot({ path: join(tmpdir(), 'lookout-names-escaped.png') });
    await context.close();
  });

  it('an OAuth client named with it: the consent page and Connected apps show it as text', async () => {
    // Dynamic client registration (RFC 7591), as an assistant registers itself.
    const registered = await localhostFetch(lookout.url('demo', '/oauth/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: NAME,
        redirect_uris: [redirect],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(lookout.url('demo', '/oauth/authorize'));
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: redirect,
      scope: 'mcp',
      resource: lookout.url('demo', '/mcp'),
      state: 'x',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      authorize.searchParams.set(k, v);

    const { context, page } = await signedInAt(browser, lookout, {
      email: lookout.adminEmail,
      password: lookout.password,
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(authorize.href);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toBe(`Allow ${NAME} to use Lookout as you?`);
    expect(await page.title()).toBe(`Allow ${NAME}? · Lookout`);
    await expectShownAsText(page, dialogs, 'consent page');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirect));
    // The assistant exchanges its code (PKCE): only an app holding a token is listed as connected.
    const token = await localhostFetch(lookout.url('demo', '/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: new URL(page.url()).searchParams.get('code') ?? '',
        redirect_uri: redirect,
        client_id: client.client_id,
        code_verifier: verifier,
        resource: lookout.url('demo', '/mcp'),
      }).toString(),
    });
    expect(token.status, await token.clone().text()).toBe(200);
    await page.goto(lookout.url('demo', '/settings/connected-apps'));
    await expectShownAsText(page, dialogs, 'connected apps');
    await context.close();
  });
});
