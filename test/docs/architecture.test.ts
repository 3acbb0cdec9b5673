// docs/architecture.md is where a newcomer starts a change, so what it names must be where it says:
//
// - Every path in its "If you want to change X, start at Y" table resolves as written, from the
//   repository root or one of the short roots the document declares (`control-plane/src/`,
//   `control-plane/web/src/`, `agent/src/`, `control-plane/`). Unlike the rule for every doc
//   (paths.test.ts), a bare name does not pass because some file somewhere has it: `server.ts` must be
//   `control-plane/src/process/server.ts`, so a file moved to another folder fails here until its row follows.
//   `<x>` and `*` stand for any part of a name; at least one file must match.
// - The contract suites it lists are the suites in `test/contract/`, and their count is right.
// - The batch sizes it gives for the agent's reporting are the code's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
const ROOTS = ['', 'control-plane/src/', 'control-plane/web/src/', 'agent/src/', 'control-plane/'];
const EXTENSIONS = /\.(ts|tsx|js|mjs|json|md|proto|binpb|yml|yaml|sh|Dockerfile)$/;
/** First segments that make a span a path even without an extension. */
const FOLDERS = new Set([
  'agent',
  'control-plane',
  'deploy',
  'docs',
  'proto',
  'shared',
  'test',
  '.ci',
  'domain',
  'http',
  'store',
  'rpc',
  'notify',
  'mcp',
  'cli',
  'web',
  'pages',
  'config-as-code',
  'api-client',
]);

/** The text of the section whose heading starts with `title`, up to the next `## `. */
function section(title: string): string {
  const start = DOC.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${title}"`);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** The paths a table row names: backticked spans that look like files or folders. */
function pathsIn(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((span) => !span.startsWith('/') && !span.includes('://') && /^[\w.@<>*/-]+$/.test(span))
    .filter(
      (span) =>
        EXTENSIONS.test(span) ||
        (span.includes('/') && (span.endsWith('/') || FOLDERS.has(span.split('/')[0]!))),
    );
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.git') continue;
    const full = join(dir, entry.name);
    out.push(relative(REPO, full) + (entry.isDirectory() ? '/' : ''));
    if (entry.isDirectory()) filesUnder(full, out);
  }
  return out;
}

const ALL = filesUnder(REPO);

/** Whether `path` names a file or folder from one of ROOTS, as written. */
function resolvesStrictly(path: string): boolean {
  if (!/[<*]/.test(path)) return ROOTS.some((root) => existsSync(join(REPO, root + path)));
  const body = path
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/<[^>]*>|\*/g, '[^/]+')
    .replace(/\/$/, '/?');
  return ROOTS.some((root) => {
    const re = new RegExp(`^${root.replace(/[.\\/-]/g, '\\$&')}${body}/?$`);
    return ALL.some((file) => re.test(file));
  });
}

describe('docs/architecture.md', () => {
  it('names in its "to change X, start at Y" table only paths that exist as written', () => {
    const table = section('If you want to change X')
      .split('\n')
      .filter((line) => line.startsWith('| '));
    expect(table.length).toBeGreaterThan(40);
    const gone = table.flatMap((row, i) =>
      pathsIn(row)
        .filter((path) => !resolvesStrictly(path))
        .map((path) => `row ${i}: \`${path}\``),
    );
    expect(gone).toEqual([]);
  });

  it('lists the contract suites that test/contract holds, and counts them right', () => {
    const tests = section('Tests');
    const m = /one suite per store port, (\d+) in\s+all \(([^)]*)\) plus ([\s\S]*?), each against/.exec(
      tests,
    );
    expect(m, 'the contract bullet of "Tests"').not.toBeNull();
    const ports = [...m![2]!.matchAll(/`([\w-]+)`/g)].map((x) => x[1]!);
    const others = [...m![3]!.matchAll(/`([\w-]+)`/g)].map((x) => x[1]!);
    expect(Number(m![1])).toBe(ports.length);
    const suites = readdirSync(join(REPO, 'test/contract'))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => name.replace(/\.test\.ts$/, ''))
      // adapters.test.ts checks the other files (each registers as many MongoDB tests as SQLite ones).
      .filter((name) => name !== 'adapters');
    expect([...ports, ...others].sort()).toEqual(suites.sort());
  });

  it("gives the agent's report batch sizes as the code has them", () => {
    const reporter = readFileSync(join(REPO, 'agent/src/reporter.ts'), 'utf8');
    const service = readFileSync(join(REPO, 'control-plane/src/rpc/agent-service.ts'), 'utf8');
    const batch = Number(/export const REPORT_BATCH = ([\d_]+);/.exec(reporter)![1]!.replaceAll('_', ''));
    const max = Number(/const MAX_RESULTS_PER_BATCH = ([\d_]+);/.exec(service)![1]!.replaceAll('_', ''));
    const text = section('Agents').replace(/\s+/g, ' ');
    for (const claim of [
      `full batches of ${batch.toLocaleString('en')} as checks finish`,
      `up to the ${max.toLocaleString('en')} the control plane announces at Register`,
    ])
      expect(text.includes(claim), `"Agents" says: ${claim}`).toBe(true);
  });

  it('the strict rule refuses a bare name that only some other folder has', () => {
    expect(resolvesStrictly('process/server.ts')).toBe(true); // control-plane/src/process/server.ts
    expect(resolvesStrictly('http-prober.ts')).toBe(false); // only agent/src/probers/http-prober.ts
    expect(resolvesStrictly('probers/http-prober.ts')).toBe(true);
    expect(resolvesStrictly('domain/<aggregate>/<x>-store.ts')).toBe(true);
    expect(resolvesStrictly('store/sqlite/<x>-gone.ts')).toBe(false);
    expect(pathsIn('`GET /regions`, `a text`, `text/plain`, `deploy/docker/*.Dockerfile`')).toEqual([
      'deploy/docker/*.Dockerfile',
    ]);
  });
});
