// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the file format's ${NAME} references are the subject
import { describe, expect, it } from 'vitest';
import { same } from './compare.js';
import { Hidden } from './kind.js';
import { isSecretField } from './kinds/index.js';
import { readConfigSource } from './yaml-source.js';

const text = [
  'monitors:', // 1
  '  - display_name: Home', // 2
  '    url: https://example.com/?t=${TOKEN}', // 3
  '    request_body: "$${not a variable}"', // 4
  '    auth:', // 5
  '      type: bearer', // 6
  '      token: ${MISSING}', // 7
  '  - display_name: leak ${LOOKOUT_API_KEY}', // 8
  '    monitor_type: tcp', // 9
  '    url: db.example.com', // 10
  '',
].join('\n');

describe('readConfigSource', () => {
  it('resolves ${NAME} in secret fields only, keeps $${ literal, and leaves an unset secret to the plan', () => {
    const s = readConfigSource('f.yaml', text, { TOKEN: 'abc', LOOKOUT_API_KEY: 'ak.secret' }, isSecretField);
    const [m, leak] = (s.data as { monitors: Record<string, unknown>[] }).monitors;
    expect(m!.url).toBe('https://example.com/?t=abc');
    expect(m!.request_body).toBe('${not a variable}');
    expect([...s.secretPaths].sort()).toEqual(['monitors[0].auth.token', 'monitors[0].url']);
    expect(s.unsetSecrets).toEqual([{ path: ['monitors', 0, 'auth', 'token'], name: 'MISSING' }]);
    // A name is no secret field: the variable is not expanded (so never printed), and the file is refused.
    expect(leak!.display_name).toBe('leak ${LOOKOUT_API_KEY}');
    expect(JSON.stringify(s)).not.toContain('ak.secret');
    expect(s.problems).toEqual([
      {
        path: 'monitors[1].display_name',
        line: 8,
        message:
          'takes no ${LOOKOUT_API_KEY}: only secret fields (passwords, tokens, credential headers) are read from the environment; write $${ for a literal ${',
      },
    ]);
  });

  it('gives the line of a value, of a key holding a collection, and of the nearest value for a missing one', () => {
    const s = readConfigSource('f.yaml', text, { TOKEN: 'x', MISSING: 'y' }, isSecretField);
    expect(s.lineOf(['monitors', 0, 'url'])).toBe(3);
    expect(s.lineOf(['monitors', 0, 'auth'])).toBe(5);
    expect(s.lineOf(['monitors', 0, 'port'])).toBe(2);
    expect(s.lineOf(['monitors'])).toBe(1);
  });

  it('reports YAML syntax errors with their line', () => {
    const s = readConfigSource('f.yaml', 'monitors:\n  - display_name: a\nmonitors: []\n', {}, isSecretField);
    expect(s.problems).toEqual([{ path: '(file)', line: 3, message: 'Map keys must be unique' }]);
  });
});

describe('same', () => {
  it('compares objects and lists whole; a Hidden value matches as far as it can tell', () => {
    expect(same({ a: [1, 2], b: null }, { a: [1, 2] })).toBe(true);
    expect(same({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(same({ type: 'basic', password: 'x' }, { type: 'basic', password: new Hidden() })).toBe(true);
    expect(same('https://a/1234', new Hidden((v) => v === 'https://a/1234'))).toBe(true);
    expect(same('https://a/9999', new Hidden((v) => v === 'https://a/1234'))).toBe(false);
  });
});
