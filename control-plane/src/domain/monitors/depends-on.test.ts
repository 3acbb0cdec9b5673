import { describe, expect, it } from 'vitest';
import { type DependencyNode, dependsOnProblems, MAX_WALK } from './depends-on.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** An in-memory graph that counts the ids it was asked for (the walk reads only what it reaches). */
const graph = (edges: Record<number, number[]>, kinds: Record<number, DependencyNode['kind']> = {}) => {
  const asked: string[] = [];
  return {
    asked,
    async getDependencyNodes(_ws: string, ids: string[]) {
      asked.push(...ids);
      return ids
        .map((x) => Number(x.slice(-12)))
        .filter((n) => n in edges)
        .map((n) => ({
          id: id(n),
          kind: kinds[n] ?? 'monitor',
          name: `N${n}`,
          depends_on: edges[n]!.map(id),
        }));
    },
  };
};

describe('depends_on problems', () => {
  it('accepts dependencies that close no cycle, reading only what they reach', async () => {
    const g = graph({ 1: [], 2: [3], 3: [], 4: [5], 5: [] });
    expect(await dependsOnProblems(g, 'ws', { id: id(9), name: 'New' }, [id(2)])).toEqual([]);
    expect(new Set(g.asked)).toEqual(new Set([id(2), id(3)]));
  });

  it('leaves an entry the record already named and that was deleted since, refusing only new unknown ids', async () => {
    const g = graph({ 1: [], 2: [] });
    // id(7) was a dependency once and is gone; id(8) is new and unknown.
    expect(
      await dependsOnProblems(g, 'ws', { id: id(1), name: 'A' }, [id(7), id(2)], 'depends_on', [id(7)]),
    ).toEqual([]);
    expect(
      await dependsOnProblems(g, 'ws', { id: id(1), name: 'A' }, [id(7), id(8)], 'depends_on', [id(7)]),
    ).toEqual([
      { field: 'depends_on[1]', message: 'no monitor, heartbeat or group with this id in the workspace' },
    ]);
  });

  it('names unknown ids and the record itself by their place', async () => {
    const g = graph({ 1: [] });
    expect(await dependsOnProblems(g, 'ws', { id: id(1), name: 'A' }, [id(7), id(1)])).toEqual([
      { field: 'depends_on[0]', message: 'no monitor, heartbeat or group with this id in the workspace' },
      { field: 'depends_on[1]', message: 'is this record itself: A → A' },
    ]);
  });

  it('refuses a cycle and names its path by names', async () => {
    // 1 (A) is edited to depend on 2; 2 → 3 → 1 already.
    const g = graph({ 1: [], 2: [3], 3: [1] });
    const problems = await dependsOnProblems(g, 'ws', { id: id(1), name: 'A' }, [id(4), id(2)].slice(1));
    expect(problems).toEqual([{ field: 'depends_on[0]', message: 'would make a cycle: A → N2 → N3 → A' }]);
  });

  it('sees a cycle through a group: a member that depends on its own group', async () => {
    const g = graph({ 5: [1, 2] }, { 5: 'group' });
    const problems = await dependsOnProblems(g, 'ws', { id: id(1), name: 'A' }, [id(5)]);
    expect(problems[0]!.message).toBe('would make a cycle: A → N5 → A');
  });

  it('stops a walk that reaches more than MAX_WALK records', async () => {
    const edges: Record<number, number[]> = {};
    for (let i = 10; i < 10 + MAX_WALK + 10; i++) edges[i] = [i + 1];
    const g = graph(edges);
    const problems = await dependsOnProblems(g, 'ws', { id: id(1), name: 'A' }, [id(10)]);
    expect(problems).toEqual([
      { field: 'depends_on', message: expect.stringContaining(`more than ${MAX_WALK}`) },
    ]);
  });
});
