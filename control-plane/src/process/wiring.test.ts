import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
const ALL = sources('.');
const text = (file: string) => readFileSync(join(SRC, file), 'utf8');

describe('the process wiring', () => {
  it('is the one place that builds the shared services from configuration', () => {
    // A call (not the definition) of each builder, and a secret box made with the deployment's key.
    const builders = [
      /\bdispatcherFromConfig\(/,
      /\bmailRouterFromConfig\(/,
      /\bcontactServicesFromConfig\(/,
      /\bcreateDomainLookup\(/,
      /\bcreateMetrics\(/,
      /\bcreateSecretBox\([^)]*encryption_key/,
    ];
    const found = ALL.flatMap((file) =>
      text(file)
        .split('\n')
        .filter((line) => !/^export const \w+ = /.test(line))
        .filter((line) => builders.some((b) => b.test(line)))
        .map((line) => `${relative('.', file)}: ${line.trim()}`),
    );
    expect(found.filter((f) => !f.startsWith('process/wiring.ts'))).toEqual([]);
    expect(found.length).toBeGreaterThan(0);
  });

  it('hands no route, job or RPC service the whole store: each names the ports it uses', () => {
    // Only the process (its wiring, server, bootstrap, local agents, metrics) and the type that
    // composes the app's dependencies (http/route.ts) may name `Store` of store/port.ts.
    const mayHold =
      /^(process\/(wiring|server|bootstrap|local-agents|metrics|main)\.ts|http\/route\.ts|store\/.*|cli\/.*)$/;
    const holders = ALL.filter((file) => /from '[./]+store\/port\.js'/.test(text(file))).filter(
      (file) => !mayHold.test(file),
    );
    expect(holders).toEqual([]);
    // AppDeps (whose store is the whole Store) is for the app that composes the routes, nothing else.
    const appDeps = ALL.filter((file) => /\bAppDeps\b/.test(text(file))).filter(
      (file) => !/^http\/(route|app)\.ts$/.test(file),
    );
    expect(appDeps).toEqual([]);
  });
});
