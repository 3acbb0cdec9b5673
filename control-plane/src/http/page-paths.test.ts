import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchPage, PAGES, type PageName } from './page-paths.js';
import type { ApiState } from './route.js';
import { serveWebApp } from './web-app.js';

/**
 * One list of the web app's pages (page-paths.ts) for both sides: the server serves exactly those
 * paths as pages, and the app's router (web/src/main.tsx) names each one and declares none of its own.
 */
const sample = (name: PageName) => PAGES[name].replace(':id', 'abc-123');
const NOT_PAGES = [
  '/monitors/abc/def',
  '/heartbeats/abc/edit',
  '/alerts/abc/edit',
  '/settingsx',
  '/settings/other',
  '/routing',
  `/monitors/${'a'.repeat(101)}`,
];

describe('the pages of the web app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-pages-'));
  const app = new Koa<ApiState>();
  let base = '';
  let server: ReturnType<Koa['listen']>;
  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>the app</title>');
    app.use(async (ctx, next) => {
      ctx.state.workspace = { id: 'w1', subdomain: 'demo' } as ApiState['workspace'];
      await next();
    });
    app.use(
      serveWebApp({
        sessionCookie: 'session',
        secure: false,
        dir: `${dir}/`,
        noWorkspace: {
          serviceDomain: 'localhost',
          scheme: 'http',
          trustProxy: false,
          onlyWorkspace: async () => null,
        },
      }),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names each path of the list as its own page, and nothing else', () => {
    for (const name of Object.keys(PAGES) as PageName[])
      expect(matchPage(sample(name)), sample(name)).toEqual({
        name,
        id: PAGES[name].includes(':id') ? 'abc-123' : '',
      });
    for (const path of NOT_PAGES) expect(matchPage(path), path).toBeNull();
  });

  it('the server answers every page of the list with the app, and no other path', async () => {
    for (const name of Object.keys(PAGES) as PageName[]) {
      const r = await fetch(`${base}${sample(name)}`, { headers: { accept: 'application/json' } });
      expect(r.status, sample(name)).toBe(200);
      expect(await r.text()).toContain('the app');
    }
    for (const path of NOT_PAGES) {
      const r = await fetch(`${base}${path}`, { headers: { accept: 'application/json' } });
      expect(r.status, path).toBe(404);
    }
  });

  it('the server and the app declare no page path of their own', () => {
    /** A source file without its comments. */
    const source = (p: string) =>
      readFileSync(new URL(p, import.meta.url), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
    const main = source('../../web/src/main.tsx');
    // Every page of the list has its entry in the app's table (or is one of those it shows outside it).
    for (const name of Object.keys(PAGES)) expect(main, name).toMatch(new RegExp(`\\b${name}:|'${name}'`));
    // No path written out: neither a quoted one ('/monitors') nor a pattern (/^\/monitors/), but the
    // server's OAuth page that sign-in may hand over to.
    expect(main).not.toMatch(/['"`]\/[a-z]/);
    expect(main.replace('/^\\/oauth\\/interaction', '')).not.toMatch(/\/\^\\\//);
    // The server tests a path against the list only (its hashed assets aside).
    const server = source('./web-app.ts');
    expect(server).toContain('matchPage(ctx.path)');
    expect(server.replace('/^\\/assets\\/', '')).not.toMatch(/\/\^\\\//);
  });
});
