import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { heapGrowingFactor } from '../../test/support/heap-growth.js';

const built = pathToFileURL(fileURLToPath(new URL('../dist/v8-flags.js', import.meta.url))).href;

/**
 * Objects that all outlive young collections (what V8's pretenuring feedback acts on), in a child
 * that traces its pretenuring decisions; `prelude` runs first. Returns how many decisions it traced.
 */
const pretenuringDecisions = (prelude: string) => {
  const workload = `${prelude}
    const keep = [];
    function make(i) { return { i, a: { b: [i, i] }, s: [1, 2, 3] }; }
    for (let r = 0; r < 10; r++) for (let i = 0; i < 100000; i++) keep.push(make(i));`;
  const out = spawnSync(
    process.execPath,
    ['--trace-pretenuring', '--trace-pretenuring-statistics', '--input-type=module', '-e', workload],
    { encoding: 'utf8' },
  );
  expect(out.status).toBe(0);
  return out.stdout.split('\n').filter((l) => l.includes('tenure')).length;
};

describe("the agent's V8 flags", () => {
  it('turn allocation-site pretenuring off (V8 decides nothing about it any more)', () => {
    expect(pretenuringDecisions('')).toBeGreaterThan(0); // the workload does trip it by default
    expect(pretenuringDecisions(`await import(${JSON.stringify(built)});`)).toBe(0);
  });

  it("hold the old generation's growth to 1.4 × what survives a full collection, unless node's command line says otherwise", () => {
    expect(heapGrowingFactor('')).not.toBe(1.4); // V8's own choice differs
    const load = `await import(${JSON.stringify(built)});`;
    expect(heapGrowingFactor(load)).toBe(1.4);
    expect(heapGrowingFactor(load, ['--heap-growing-percent=80'])).toBe(1.8);
  });

  it('are applied by the agent process before anything else is imported', () => {
    const main = readFileSync(fileURLToPath(new URL('./main.ts', import.meta.url)), 'utf8');
    expect(main.match(/^import .*$/m)?.[0]).toBe("import './v8-flags.js';");
  });
});
