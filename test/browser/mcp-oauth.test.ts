import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../control-plane/src/mcp/tools.js';
import { localhostFetch, MemoryOAuthProvider } from '../support/oauth-client.js';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * The hosted MCP connector end to end, as an assistant and a person use it: the MCP SDK's own client
 * (Streamable HTTP transport with its OAuthClientProvider) against Lookout started like `npm start`;
 * the person signs in and presses Allow in Debian's chromium; the assistant's redirect lands on a
 * local callback server, as desktop assistants do.
 */
let lookout: Lookout;
let browser: Browser;
let callback: Server;
let codes: URLSearchParams[] = [];
let redirect: string;

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  callback = createServer((req, res) => {
    codes.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    res.setHeader('content-type', 'text/plain');
    res.end('Connected. You can close this tab.');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  callback?.close();
  await browser?.close();
  await lookout?.stop();
});

const mcpUrl = () => new URL(lookout.url('demo', '/mcp'));

describe('hosted MCP connector in chromium', () => {
  it('discovery, registration, PKCE, sign-in and Allow in the browser, token, tools/list, create_monitor; then Connected apps revokes it', async () => {
    const provider = new MemoryOAuthProvider(redirect);
    const transport = new StreamableHTTPClientTransport(mcpUrl(), {
      authProvider: provider,
      fetch: localhostFetch,
    });
    await expect(
      new Client({ name: 'assistant', version: '1.0.0' }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const context = await browser.newContext();
    const page = await context.newPage();
    codes = [];
    await page.goto(authorizationUrl.href);
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/oauth\/interaction\/[\w-]+$/);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toBe('Allow Test Assistant to use Lookout as you?');
    const text = await page.getByRole('main').textContent();
    expect(text).toContain(`act as you, ${lookout.adminEmail}, with your role, admin`);
    expect(await page.getByRole('button', { name: 'Deny' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirect));
    expect(await page.textContent('body')).toContain('Connected.');
    const code = codes.find((c) => c.has('code'))?.get('code');
    expect(code).toBeTruthy();

    await transport.finishAuth(code!);
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider, fetch: localhostFetch }),
    );
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(
      tools.map((t) => t.name).sort(),
    );
    const r = await client.callTool({
      name: 'create_monitor',
      arguments: {
        display_name: 'From the hosted connector',
        monitor_type: 'http',
        url: 'https://example.com/',
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 300,
      },
    });
    const created = JSON.parse((r.content as { text: string }[])[0]!.text);
    expect(r.isError).toBeFalsy();
    const seen = await lookout.api('demo', `/monitors/${created.id}`, { 'x-api-key': lookout.apiKey });
    expect(seen.status).toBe(200);
    expect(JSON.parse(seen.body)).toMatchObject({ display_name: 'From the hosted connector' });

    // Settings → Connected apps: the grant is listed by the client's name; Revoke ends it.
    await page.goto(lookout.url('demo', '/settings/connected-apps'));
    await page.getByRole('heading', { name: 'Connected apps', level: 1 }).waitFor();
    const row = page
      .getByRole('region', { name: 'Your connected apps' })
      .getByRole('row', { name: /Test Assistant/ });
    await row.waitFor();
    await page.getByRole('button', { name: 'Revoke Test Assistant', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    const after = await localhostFetch(mcpUrl(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(after.status).toBe(401);
    await client.close();
    await context.close();
  });

  it('an admin sees every user’s connected apps under Connected apps and revokes a member’s', async () => {
    const mia = (
      await lookout.cli([
        'user',
        'create',
        '--workspace',
        'demo',
        '--email',
        'mia@demo.localhost',
        '--role',
        'member',
      ])
    ).user as { password: string };
    const provider = new MemoryOAuthProvider(redirect);
    const transport = new StreamableHTTPClientTransport(mcpUrl(), {
      authProvider: provider,
      fetch: localhostFetch,
    });
    await expect(
      new Client({ name: 'assistant', version: '1.0.0' }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    // Mia connects the assistant in her browser.
    const hers = await browser.newContext();
    const herPage = await hers.newPage();
    codes = [];
    await herPage.goto(provider.authorizationUrl!.href);
    await herPage.waitForURL(/\/sign-in\?next=/);
    await herPage.getByLabel('Email').fill('mia@demo.localhost');
    await herPage.getByLabel('Password').fill(mia.password);
    await herPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await herPage.getByRole('button', { name: 'Allow' }).click();
    await herPage.waitForURL((u) => u.href.startsWith(redirect));
    await transport.finishAuth(codes.find((c) => c.has('code'))!.get('code')!);
    await hers.close();

    // The admin: not among their own apps, listed with Mia in the workspace's.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto(lookout.url('demo', '/settings/connected-apps'));
    const everyone = page.getByRole('region', { name: 'Connected apps in this workspace' });
    const row = everyone.getByRole('row', { name: /Test Assistant/ });
    await row.waitFor();
    expect(await row.getByRole('cell', { name: 'mia@demo.localhost', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Your connected apps' }).getByRole('row').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke Test Assistant for mia@demo.localhost' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe(
      'Revoke “Test Assistant for mia@demo.localhost”?',
    );
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    const after = await localhostFetch(mcpUrl(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(after.status).toBe(401);
    await context.close();
  });
});
