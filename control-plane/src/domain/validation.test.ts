import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freeText, hasVisible, nameText, problemsIn } from './validation.js';

describe('hasVisible', () => {
  it.each([
    ['a', true],
    ['\u200b a', true],
    ['e\u0301', true],
    ['👩\u200d💻', true],
    ['نسخ', true],
    ['', false],
    ['\u200b\u200b', false],
    ['\u00ad', false],
    ['\ufeff\u2060', false],
    ['\u0301', false],
    ['\ufe0f', false],
    ['\u3164', false],
    ['\u115f\u1160', false],
    ['\uffa0', false],
    ['\u2800', false],
    ['\udb40\udc41', false],
    [' \u3000\u00a0', false],
  ])('%j → %s', (s, visible) => expect(hasVisible(s)).toBe(visible));
});

const messages = (schema: Parameters<typeof problemsIn>[0], v: string) =>
  problemsIn(schema, v).problems.map((p) => p.message);

describe('nameText and freeText', () => {
  it('a name with nothing visible gets one message, an empty one the empty message', () => {
    expect(messages(nameText(20), '\u200b\u200b')).toEqual(['must have at least one visible character']);
    expect(messages(nameText(20), '  ')).toEqual(['must not be empty']);
    expect(messages(nameText(20), '\u200b\n')).toEqual([
      'must be one line without control or bidirectional formatting characters (found U+000A)',
    ]);
  });

  it('free text: one line refuses tab and line breaks, many lines keep them; both refuse the rest', () => {
    const one = freeText(100, 'one');
    const many = freeText(100, 'many');
    expect(messages(many, 'a\r\n\tb')).toEqual([]);
    expect(messages(one, 'a\tb')).toEqual([
      'must be one line without control or bidirectional formatting characters (found U+0009)',
    ]);
    for (const c of [
      '\u0000',
      '\u0008',
      '\u000b',
      '\u001f',
      '\u007f',
      '\u009f',
      '\u202e',
      '\u2068',
      '\uffff',
    ])
      expect(messages(many, `x${c}`), JSON.stringify(c)).toEqual([
        `must not contain control or bidirectional formatting characters (found U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
      ]);
    expect(messages(many, 'x'.repeat(101))).toEqual(['must be at most 100 characters']);
  });
});

describe('bounds', () => {
  it('says "less than" and "more than" for bounds that are not allowed themselves', () => {
    const open = z.number().gt(0).lt(100);
    const closed = z.number().min(0).max(100);
    const say = (schema: z.ZodType, v: number) => problemsIn(schema, v).problems.map((p) => p.message);
    expect(say(open, 100)).toEqual(['must be less than 100']);
    expect(say(open, 0)).toEqual(['must be more than 0']);
    expect(say(closed, 101)).toEqual(['must be at most 100']);
    expect(say(closed, -1)).toEqual(['must be at least 0']);
  });
});
