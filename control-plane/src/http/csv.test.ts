import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, csvLine } from './csv.js';

describe('CSV cells', () => {
  it('quotes what needs quotes, and makes formulas text', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    for (const f of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(f)).toBe(`"'${f}"`);
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });

  it('writes numbers and booleans as they are, null as nothing, nested values as JSON', () => {
    expect(csvCell(0)).toBe('0');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell([])).toBe('[]');
    expect(csvCell({ a: 1, b: 'x' })).toBe('"{""a"":1,""b"":""x""}"');
  });

  it('lines end in CRLF, cells in the columns’ order', () => {
    expect(csvHeader(['a', 'b'])).toBe('a,b\r\n');
    expect(csvLine(['b', 'a'], { a: 1, b: '-x', c: 3 })).toBe(`"'-x",1\r\n`);
  });
});
