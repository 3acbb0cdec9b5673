import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * The factor V8 grows the old generation's limit by after a full collection, in a child that runs
 * `node <nodeArgs> -e <prelude; a full collection>` with V8's verbose GC trace (`[HeapController]
 * Limit: old size: …, new limit: … (F)`). V8's default picks it from its GC and mutator speeds, up to 4.
 */
export const heapGrowingFactor = (prelude: string, nodeArgs: string[] = []): number => {
  const script = `${prelude}
    const keep = [];
    for (let i = 0; i < 200000; i++) keep.push({ i });
    gc();`;
  const out = spawnSync(
    process.execPath,
    [...nodeArgs, '--expose-gc', '--trace-gc-verbose', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  expect(out.status, out.stderr).toBe(0);
  const factors = [...out.stdout.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)$/gm)].map((m) =>
    Number(m[1]),
  );
  expect(factors.length).toBeGreaterThan(0);
  return factors[factors.length - 1]!;
};
