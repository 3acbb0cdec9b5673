import { expect, it } from 'vitest';
import { createRunList } from './run-list.js';

it('hands runs out first in first out, across its compactions, and clear tells every one it is over', () => {
  const list = createRunList();
  const ended: string[] = [];
  for (let i = 0; i < 3000; i++) list.push(`m${i}`, i, () => ended.push(`m${i}`));
  const out: [string, number][] = [];
  for (let i = 0; i < 2500; i++) list.shift((id, at) => out.push([id, at]));
  expect(out[0]).toEqual(['m0', 0]);
  expect(out[2499]).toEqual(['m2499', 2499]);
  expect(list.size).toBe(500);
  list.push('late', 9999, () => ended.push('late'));
  list.shift((id, at, done) => {
    expect([id, at]).toEqual(['m2500', 2500]);
    done();
  });
  expect(ended).toEqual(['m2500']);
  list.clear();
  expect(list.size).toBe(0);
  expect(ended).toHaveLength(501);
  expect(ended[ended.length - 1]).toBe('late');
});
