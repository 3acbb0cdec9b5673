/**
 * The contract suites never lose their MongoDB variants silently: without LOOKOUT_MONGODB_URI they are
 * registered and skipped (the runner counts them, the reason in their name), and each contract file
 * is checked after its run to register for MongoDB every test it registers for SQLite (stores.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapters, mongoSkip, mongoUri, testsPerAdapter } from './stores.js';

const here = import.meta.dirname;
const contractFiles = readdirSync(here).filter((f) => f.endsWith('.test.ts') && f !== 'adapters.test.ts');

describe('contract adapters', () => {
  it('lists SQLite and MongoDB always; MongoDB says why it is skipped exactly when no URI is set', () => {
    expect(adapters.map((a) => a.name)).toEqual(['sqlite', 'mongodb']);
    expect(adapters[0]!.skip).toBeNull();
    expect(adapters[1]!.skip).toBe(mongoUri ? null : 'LOOKOUT_MONGODB_URI is not set');
    expect(mongoSkip).toBe(adapters[1]!.skip);
  });

  it('every contract file registers through stores.ts, and only stores.ts reads the MongoDB URI', () => {
    expect(contractFiles.length).toBeGreaterThan(10);
    for (const f of contractFiles) {
      const text = readFileSync(join(here, f), 'utf8');
      expect(text, f).toContain("from './stores.js'");
      expect(text, f).not.toContain('process.env.LOOKOUT_MONGODB_URI');
    }
  });

  it('counts the tests under each adapter, so a file missing its MongoDB variants fails after its run', () => {
    const test = (name: string) => ({ type: 'test', name }) as never;
    const suite = (name: string, tasks: unknown[]) => ({ type: 'suite', name, tasks }) as never;
    expect(
      testsPerAdapter([
        suite('AlertStore contract: sqlite', [test('a'), test('b')]),
        suite('AlertStore contract: mongodb (skipped: LOOKOUT_MONGODB_URI is not set)', [
          test('a'),
          suite('MongoDB only', [test('c')]),
        ]),
        suite('mongodb (skipped: LOOKOUT_MONGODB_URI is not set)', [
          suite('Store contract, members: mongodb', [test('x')]),
        ]),
        test('neither'),
      ]),
    ).toEqual({ sqlite: 2, mongodb: 3 });
  });
});
