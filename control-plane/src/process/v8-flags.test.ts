import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { heapGrowingFactor } from '../../../test/support/heap-growth.js';

const built = pathToFileURL(fileURLToPath(new URL('../../dist/process/v8-flags.js', import.meta.url))).href;

describe("the control plane's V8 flags", () => {
  it("hold the old generation's growth to 1.2 × what survives a full collection, unless node's command line says otherwise", () => {
    expect(heapGrowingFactor('')).not.toBe(1.2); // V8's own choice differs
    const load = `await import(${JSON.stringify(built)});`;
    expect(heapGrowingFactor(load)).toBe(1.2);
    expect(heapGrowingFactor(load, ['--heap-growing-percent=80'])).toBe(1.8);
  });

  it('are applied by the control plane process before anything else is imported', () => {
    const main = readFileSync(fileURLToPath(new URL('./main.ts', import.meta.url)), 'utf8');
    expect(main.match(/^import .*$/m)?.[0]).toBe("import './v8-flags.js';");
  });
});
