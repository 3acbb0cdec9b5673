import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import { describe, expect, it } from 'vitest';
import { loadedOnFirstUse } from './loaded-on-first-use.js';
import { isHostedMcpPath } from './oauth/hosted-paths.js';

const request = (path: string) => ({ path }) as Context;

describe('loadedOnFirstUse', () => {
  it('lets other requests pass without loading, and loads once for the requests it may serve', async () => {
    let loads = 0;
    let release!: () => void;
    const loaded = new Promise<void>((r) => {
      release = r;
    });
    const served: string[] = [];
    const mw = loadedOnFirstUse<unknown>(
      (p) => p.startsWith('/lazy'),
      async () => {
        loads++;
        await loaded;
        return async (ctx) => {
          served.push(ctx.path);
        };
      },
    );
    const passed: string[] = [];
    const next = (p: string) => async () => {
      passed.push(p);
    };
    await mw(request('/other'), next('/other') as Next);
    expect(loads).toBe(0);
    expect(passed).toEqual(['/other']);

    // Two requests while the load runs share it.
    const a = mw(request('/lazy/a'), next('/lazy/a') as Next);
    const b = mw(request('/lazy/b'), next('/lazy/b') as Next);
    release();
    await Promise.all([a, b]);
    await mw(request('/lazy/c'), next('/lazy/c') as Next);
    expect(loads).toBe(1);
    expect(served).toEqual(['/lazy/a', '/lazy/b', '/lazy/c']);
    expect(passed).toEqual(['/other']);
  });

  it('fails the requests of a failed load and tries again on the next one', async () => {
    let loads = 0;
    const mw = loadedOnFirstUse<unknown>(
      () => true,
      async () => {
        loads++;
        if (loads === 1) throw new Error('import failed');
        return async (ctx) => {
          ctx.status = 204;
        };
      },
    );
    await expect(mw(request('/x'), async () => {})).rejects.toThrow('import failed');
    const ctx = request('/x');
    await mw(ctx, async () => {});
    expect(ctx.status).toBe(204);
    expect(loads).toBe(2);
  });
});

describe('the hosted MCP connector', () => {
  it.each([
    ['/mcp', true],
    ['/oauth/register', true],
    ['/oauth/interaction/abc', true],
    ['/.well-known/oauth-authorization-server', true],
    ['/.well-known/oauth-protected-resource/mcp', true],
    ['/mcp/', false],
    ['/api/v1/monitors', false],
    ['/status/acme', false],
    ['/', false],
  ])('%s may be its request: %s', (path, hosted) => {
    expect(isHostedMcpPath(path)).toBe(hosted);
  });

  /** The packages reached from `file` through static imports (type-only ones are erased: verbatimModuleSyntax). */
  const staticPackages = (file: string, seen = new Set<string>(), packages = new Set<string>()) => {
    if (seen.has(file)) return packages;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, kind, spec] of source.matchAll(
      /^(?:import|export)\s+(type\s)?(?:[^;'"]*?\sfrom\s+)?'([^']+)';/gms,
    )) {
      if (kind) continue;
      if (spec!.startsWith('.'))
        staticPackages(resolve(dirname(file), spec!.replace(/\.js$/, '.ts')), seen, packages);
      else
        packages.add(spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!);
    }
    return packages;
  };

  it('is not among what the control plane loads at start: oidc-provider and the MCP SDK come with its first request', () => {
    const main = resolve(dirname(fileURLToPath(import.meta.url)), '../main.ts');
    const packages = staticPackages(main);
    // The walk sees the process's own packages (it would find nothing if it were broken).
    expect(packages).toContain('koa');
    expect(packages).toContain('better-sqlite3');
    expect(packages).not.toContain('oidc-provider');
    expect(packages).not.toContain('@modelcontextprotocol/sdk');
    // The connector's own module does reach them (the walk follows what app.ts would load).
    const hosted = staticPackages(resolve(dirname(fileURLToPath(import.meta.url)), 'oauth/hosted-mcp.ts'));
    expect(hosted).toContain('oidc-provider');
    expect(hosted).toContain('@modelcontextprotocol/sdk');
  });
});
