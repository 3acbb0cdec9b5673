import { describe, expect, it } from 'vitest';
import { parseJsonPath } from './json-path.js';

describe('parseJsonPath', () => {
  it('reads names, indexes, wildcards, quoted names and descendants', () => {
    expect(parseJsonPath('$').path).toEqual({ segments: [], singular: true });
    expect(parseJsonPath('$.data[0].status').path).toEqual({
      singular: true,
      segments: [
        { descendant: false, selector: { kind: 'name', name: 'data' } },
        { descendant: false, selector: { kind: 'index', index: 0 } },
        { descendant: false, selector: { kind: 'name', name: 'status' } },
      ],
    });
    expect(parseJsonPath(`$['a b']["it's"][-1]`).path?.segments.map((s) => s.selector)).toEqual([
      { kind: 'name', name: 'a b' },
      { kind: 'name', name: "it's" },
      { kind: 'index', index: -1 },
    ]);
    expect(parseJsonPath(`$['q\\'s']`).path?.segments[0]?.selector).toEqual({ kind: 'name', name: "q's" });
    const wild = parseJsonPath('$.items[*].id').path!;
    expect(wild.singular).toBe(false);
    expect(wild.segments[1]).toEqual({ descendant: false, selector: { kind: 'wildcard' } });
    const desc = parseJsonPath('$..status').path!;
    expect(desc).toEqual({
      singular: false,
      segments: [{ descendant: true, selector: { kind: 'name', name: 'status' } }],
    });
    expect(parseJsonPath('$..[0]').path?.segments).toEqual([
      { descendant: true, selector: { kind: 'index', index: 0 } },
    ]);
    expect(parseJsonPath('$.*').path?.segments).toEqual([
      { descendant: false, selector: { kind: 'wildcard' } },
    ]);
    expect(parseJsonPath('$.état').path?.segments[0]?.selector).toEqual({ kind: 'name', name: 'état' });
  });

  it.each([
    ['', 'must start with $'],
    ['data.status', 'must start with $'],
    ['$.', 'expects a name at character 3'],
    ['$.1a', 'expects a name at character 3'],
    ['$status', 'has an unexpected "s" at character 2'],
    ['$[?(@.a==1)]', 'uses a filter or script expression, which is not supported'],
    ['$[(1+1)]', 'uses a filter or script expression, which is not supported'],
    ['$[0:2]', 'uses slices or unions, which are not supported'],
    ['$[0,1]', 'uses slices or unions, which are not supported'],
    ["$['a", 'has an unterminated string'],
    ['$[0', 'expects "]" at character 4'],
    ['$[]', 'expects a name, an index or * at character 3'],
    ['$.[0]', 'has ".[" at character 3'],
    ["$['\\n']", 'has an unknown escape at character 4'],
    ['$[01]', 'expects "]" at character 4'],
    ['$[99999999999]', 'expects "]" at character 12'],
    [`$${'.a'.repeat(33)}`, 'has more than 32 segments'],
    [`$.${'a'.repeat(300)}`, 'is longer than 256 characters'],
  ])('refuses %j: %s', (text, error) => {
    expect(parseJsonPath(text)).toEqual({ path: null, error });
  });
});
