import { expect, it } from 'vitest';
import { createMonitorOrder } from './monitor-order.js';

const walked = (
  order: ReturnType<typeof createMonitorOrder>,
  afterId = '',
  max = Number.POSITIVE_INFINITY,
) => {
  const out: string[] = [];
  order.walk(afterId, (id) => {
    out.push(id);
    return out.length < max;
  });
  return out;
};

it('walks the ids in order, each once, from after any id, as long as it is asked to', () => {
  const order = createMonitorOrder();
  for (const id of ['m5', 'm1', 'm3', 'm1', 'm4', 'm2', 'm3']) order.add(id);
  expect(walked(order)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  expect(walked(order, 'm2')).toEqual(['m3', 'm4', 'm5']);
  expect(walked(order, 'm25')).toEqual(['m3', 'm4', 'm5']);
  expect(walked(order, 'm1', 2)).toEqual(['m2', 'm3']);
  expect(walked(order, 'm5')).toEqual([]);
  expect(order.length).toBe(5);
});

it('stays in order across the merges of its small list into its large one', () => {
  const order = createMonitorOrder();
  const ids = Array.from(
    { length: 20_000 },
    (_, i) => `mon_${((i * 7919) % 20_000).toString(36).padStart(4, '0')}`,
  );
  // In a scrambled order, each added twice, with walks in between (as the flush reads while ingestion adds).
  for (let i = 0; i < ids.length; i++) {
    order.add(ids[i]!);
    order.add(ids[(i * 31) % (i + 1)]!);
    if (i % 4999 === 0) expect(walked(order)).toEqual([...new Set(ids.slice(0, i + 1))].sort());
  }
  expect(walked(order)).toEqual([...ids].sort());
  expect(order.length).toBe(20_000); // the small list was merged (it may hold at most an eighth) and nothing doubled
});

it('drops what prune says is gone, and takes an id back afterwards', () => {
  const order = createMonitorOrder();
  for (const id of ['a', 'b', 'c', 'd']) order.add(id);
  order.prune((id) => id !== 'b' && id !== 'd');
  expect(walked(order)).toEqual(['a', 'c']);
  order.add('b');
  expect(walked(order)).toEqual(['a', 'b', 'c']);
});
