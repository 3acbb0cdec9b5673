import { expect, it } from 'vitest';
import { createRunList } from './run-list.js';

it('hands runs out first in first out, across its compactions, and clear tells every one it is over', () => {
  const list = createRunList<{ id: string; done(): void }>();
  const ended: string[] = [];
  const run = (id: string) => ({ id, done: () => ended.push(id) });
  for (let i = 0; i < 3000; i++) list.push(run(`m${i}`), i);
  const out: [string, number][] = [];
  for (let i = 0; i < 2500; i++) list.shift((r, at) => out.push([r.id, at]));
  expect(out[0]).toEqual(['m0', 0]);
  expect(out[2499]).toEqual(['m2499', 2499]);
  expect(list.size).toBe(500);
  list.push(run('late'), 9999);
  list.shift((r, at) => {
    expect([r.id, at]).toEqual(['m2500', 2500]);
    r.done();
  });
  expect(ended).toEqual(['m2500']);
  list.clear();
  expect(list.size).toBe(0);
  expect(ended).toHaveLength(501);
  expect(ended[ended.length - 1]).toBe('late');
});
