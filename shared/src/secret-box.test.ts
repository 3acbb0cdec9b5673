import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.js';

const key = randomBytes(32).toString('base64');

describe('secret box', () => {
  it('with a key: AES-256-GCM, a fresh IV each time, opens in its own context only', () => {
    const box = createSecretBox(key);
    const a = box.seal('hunter2-smtp', 'ctx-a');
    const b = box.seal('hunter2-smtp', 'ctx-a');
    expect(a).toMatch(/^aes256gcm:[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain('hunter2');
    expect(a).not.toBe(b);
    expect(box.open(a, 'ctx-a')).toBe('hunter2-smtp');
    expect(() => box.open(a, 'ctx-b')).toThrow(/does not open/);
  });

  it('refuses another key, an altered value, and a sealed value when the key is gone', () => {
    const sealed = createSecretBox(key).seal('pw', 'c');
    expect(() => createSecretBox(randomBytes(32).toString('base64')).open(sealed, 'c')).toThrow(
      /does not open/,
    );
    const [head, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => createSecretBox(key).open(`${head}.${tag}.${flipped.toString('base64url')}`, 'c')).toThrow();
    expect(() => createSecretBox(undefined).open(sealed, 'c')).toThrow(/LOOKOUT_ENCRYPTION_KEY/);
  });

  it('without a key values are kept as entered, and still open once a key is set', () => {
    const plain = createSecretBox(undefined).seal('pw', 'c');
    expect(plain).toBe('plain:pw');
    expect(createSecretBox(key).open(plain, 'c')).toBe('pw');
  });
});
