import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const PROTO = join(import.meta.dirname, '..');
const BIN = join(PROTO, '..', 'node_modules', '.bin');
const env = { ...process.env, PATH: `${BIN}:${process.env.PATH}` };
const out = mkdtempSync(join(tmpdir(), 'lookout-gen-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );

describe('proto/', () => {
  it('passes buf lint', () => {
    expect(() => execFileSync('buf', ['lint'], { cwd: PROTO, env, stdio: 'pipe' })).not.toThrow();
  });

  it('makes no breaking change against the released protocol (baseline/agent-v1.binpb)', () => {
    const breaking = (cwd: string, against: string) =>
      execFileSync('buf', ['breaking', '--against', against], { cwd, env, stdio: 'pipe' });
    const baseline = join(PROTO, 'baseline', 'agent-v1.binpb');
    expect(() => breaking(PROTO, baseline)).not.toThrow();
    // The check itself works: renumbering a field of a copy is reported as breaking.
    const copy = join(out, 'breaking-copy');
    cpSync(join(PROTO, 'lookout'), join(copy, 'lookout'), { recursive: true });
    cpSync(join(PROTO, 'buf.yaml'), join(copy, 'buf.yaml'));
    const file = join(copy, 'lookout', 'agent', 'v1', 'agent.proto');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('uint32 slow_down_ms = 3;', 'uint32 slow_down_ms = 30;'),
    );
    expect(() => breaking(copy, baseline)).toThrow();
  });

  it('checked-in generated code is what buf generate makes now (run `npm run generate -w proto` if this fails)', () => {
    execFileSync('buf', ['generate', '-o', out], { cwd: PROTO, env, stdio: 'pipe' });
    const fresh = join(out, 'src', 'gen');
    const committed = join(PROTO, 'src', 'gen');
    const list = (d: string) =>
      files(d)
        .map((f) => relative(d, f))
        .sort();
    expect(list(committed)).toEqual(list(fresh));
    for (const f of list(fresh)) {
      expect(readFileSync(join(committed, f), 'utf8'), f).toBe(readFileSync(join(fresh, f), 'utf8'));
    }
  });
});
