import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * Another site cannot subscribe its visitors to a status page (issue 51): a form on a page served from
 * another origin, submitted by Chromium itself (so with the Fetch Metadata and Origin headers a real
 * browser sends), is refused; the status page's own form, in the same browser, works.
 */
let lookout: Lookout;
let browser: Browser;
let evil: Server;

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const r = await lookout.api(
    'demo',
    '/status-pages',
    { 'x-api-key': lookout.apiKey },
    { method: 'POST', json: { name: 'Acme', slug: 'acme', components: [{ name: 'API' }] } },
  );
  expect(r.status, r.body).toBe(201);
  const target = lookout.url('demo', '/status/acme/subscribe');
  evil = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Win a prize</title>
<form method="post" action="${target}"><input name="email" aria-label="Email" value="visitor@example.test">
<button>Claim</button></form>`);
  });
  await new Promise<void>((ok) => evil.listen(0, '127.0.0.1', () => ok()));
});

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => evil?.close(ok));
  await lookout?.stop();
});

it('a form on another site is refused; the page’s own form works', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/status/acme/subscribe')),
    page.getByRole('button', { name: 'Claim' }).click(),
  ]);
  expect(answer.status()).toBe(403);
  expect(await page.getByRole('heading', { name: 'Subscribe on the status page' }).count()).toBe(1);

  await page.goto(lookout.url('demo', '/status/acme'));
  await page.getByRole('textbox', { name: 'Email' }).fill('reader@example.test');
  const [own] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/status/acme/subscribe')),
    page.getByRole('button', { name: 'Subscribe' }).click(),
  ]);
  expect(own.status()).toBe(200);
  expect(await page.getByRole('heading', { name: 'Check your inbox' }).count()).toBe(1);
  await context.close();
});
