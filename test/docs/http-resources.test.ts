// Each API resource has one folder, control-plane/src/http/<resource>/: its endpoints in routes.ts
// (listed in `allRoutes` in http/app.ts, the one declaration of each endpoint) and, where it returns
// records of its own, their shapes in responses.ts beside them (docs/architecture.md, the http/ room).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const HTTP = join(REPO, 'control-plane/src/http');

const folders = readdirSync(HTTP).filter((f) => statSync(join(HTTP, f)).isDirectory());
const app = readFileSync(join(HTTP, 'app.ts'), 'utf8');
/** Every module app.ts takes routes from: `import { xRoutes } from './….js'`. */
const routeImports = [...app.matchAll(/import \{([^}]*)\} from '(\.[^']+)';/g)]
  .filter(([, names]) => /\w+Routes\b/.test(names!))
  .map(([, , from]) => from!);

describe('one folder per API resource', () => {
  it('app.ts takes every resource’s routes from http/<resource>/routes.ts, and every routes.ts is in the table', () => {
    expect(routeImports.length).toBeGreaterThan(10);
    expect(routeImports.filter((from) => !/^\.\/[a-z-]+\/routes\.js$/.test(from))).toEqual([]);
    const withRoutes = folders.filter((f) => existsSync(join(HTTP, f, 'routes.ts')));
    expect(withRoutes.map((f) => `./${f}/routes.js`).sort()).toEqual([...routeImports].sort());
  });

  it('responses sit beside the routes that return them, and no shared routes/ folder is left', () => {
    expect(existsSync(join(HTTP, 'routes'))).toBe(false);
    const withResponses = folders.filter((f) => existsSync(join(HTTP, f, 'responses.ts')));
    expect(withResponses.length).toBeGreaterThan(5);
    expect(withResponses.filter((f) => !existsSync(join(HTTP, f, 'routes.ts')))).toEqual([]);
  });
});
