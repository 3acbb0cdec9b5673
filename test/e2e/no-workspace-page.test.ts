import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * A host that names no workspace (the service domain, an IP address, an unknown subdomain) answers a
 * browser with a page saying so, and where the workspaces are: a link on a single-workspace install,
 * only the address pattern with several (no names).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.workspace('zebra');
});
afterAll(() => h.close());

const open = (host: string, path = '/') => h.request('GET', path, { host, headers: { accept: 'text/html' } });

describe('a host without a workspace', () => {
  it('single workspace: the bare host and an IP address say so at once and link to the workspace', async () => {
    const port = h.cp.port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost']) {
      const r = await open(host);
      expect(r.status, host).toBe(200);
      expect(r.headers['content-type'], host).toMatch(/text\/html/);
      expect(r.headers['cache-control'], host).toBe('no-store');
      expect(r.headers['content-security-policy'], host).toMatch(/default-src 'none'/);
      expect(r.text, host).toContain('<h1>No workspace at this address.</h1>');
      expect(r.text, host).not.toContain('/assets/'); // not the app and its sign-in form
      const link = host.includes(':') ? `http://zebra.localhost:${port}/` : 'http://zebra.localhost/';
      expect(r.text, host).toContain(`<a href="${link}">${link}</a>`);
    }
    // Every page path of the app, and a path nothing answers: the same news, as a 404.
    for (const path of ['/sign-in', '/monitors', '/nowhere']) {
      const r = await open(`127.0.0.1:${port}`, path);
      expect(r.status, path).toBe(404);
      expect(r.text, path).toContain('No workspace at this address.');
    }
  });

  it('an unknown subdomain is a 404 naming it, with the way to the workspace', async () => {
    const r = await open(`nope.localhost:${h.cp.port}`, '/sign-in');
    expect(r.status).toBe(404);
    expect(r.text).toContain('No workspace is called <code>nope</code>');
    expect(r.text).toContain(`href="http://zebra.localhost:${h.cp.port}/"`);
  });

  it('several workspaces: the address pattern only, never a workspace name', async () => {
    await h.workspace('quokka');
    h.clock.advance(10_000); // the only-workspace answer is cached for 10 s
    for (const host of ['localhost', `127.0.0.1:${h.cp.port}`, 'nope.localhost']) {
      const r = await open(host);
      expect(r.text, host).toContain('No workspace at this address.');
      expect(r.text, host).toContain('Each workspace has its own address');
      expect(r.text, host).toMatch(/http:\/\/&lt;name&gt;\.localhost(:\d+)?\//);
      expect(r.text, host).not.toMatch(/zebra|quokka/);
    }
  });

  it('API calls and the workspace host are unchanged', async () => {
    const api = await h.request('GET', '/api/v1/monitors', {
      host: 'localhost',
      headers: { accept: 'text/html' },
    });
    expect(api.headers['content-type']).toMatch(/application\/json/);
    const keyed = await h.request('GET', '/sign-in', { host: 'localhost', key: 'ak.nope' });
    expect(keyed.headers['content-type']).toMatch(/application\/json/);
    const app = await open('zebra.localhost', '/sign-in');
    expect(app.status).toBe(200);
    expect(app.text).toContain('/assets/');
  });
});
