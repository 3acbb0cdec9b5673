import { describe, expect, it } from 'vitest';
import { normaliseRecipient } from '../mailbox.js';
import { recipientKey } from './recipients.js';

describe('normaliseRecipient', () => {
  it.each([
    ['Reader@Example.test', 'reader@example.test'],
    ['x+1@example.test', 'x@example.test'],
    ['x+a+b@example.test', 'x@example.test'],
    ['first.last@example.test', 'first.last@example.test'], // dots matter at most providers
    ['First.Last+news@Gmail.com', 'firstlast@gmail.com'],
    ['f.i.r.s.t@googlemail.com', 'first@gmail.com'],
    ['+tag@example.test', '+tag@example.test'], // nothing before the tag: left whole
    ['x@example.test.', 'x@example.test'],
  ])('%s → %s', (given, want) => {
    expect(normaliseRecipient(given)).toBe(want);
  });

  it('keys the same mailbox alike and keeps no address', () => {
    expect(recipientKey('A.B+1@gmail.com')).toBe(recipientKey('ab@googlemail.com'));
    expect(recipientKey('a@example.test')).not.toBe(recipientKey('b@example.test'));
    expect(recipientKey('a@example.test')).toMatch(/^[0-9a-f]{64}$/);
  });
});
