import { describe, expect, it } from 'vitest';
import { createPlacement, declaredCheckTypes, placementBasis } from './capabilities.js';
import { ownerOf } from './rendezvous.js';

const ids = Array.from({ length: 500 }, (_, i) => `monitor-${i}`);

describe('declared check types', () => {
  it('none declared is the first protocol’s types; unknown names are dropped; each kept once in a fixed order', () => {
    expect(declaredCheckTypes([])).toEqual(['http', 'api', 'dns', 'tcp', 'domain']);
    expect(declaredCheckTypes(['ping', 'http', 'gopher', 'ping', ''])).toEqual(['http', 'ping']);
    // Only unknown names: the agent runs nothing this control plane knows (not the first types).
    expect(declaredCheckTypes(['gopher'])).toEqual([]);
    expect(declaredCheckTypes(Array.from({ length: 10_000 }, () => 'x'.repeat(1000)))).toEqual([]);
  });
});

describe('placement by capability', () => {
  it('a monitor goes only to an agent that runs its type, and to nobody when none does', () => {
    const p = createPlacement([
      { instance_id: 'a', check_types: ['http', 'ping'] },
      { instance_id: 'b', check_types: ['http'] },
      { instance_id: 'c', check_types: ['http'] },
    ]);
    for (const id of ids) {
      expect(p.ownerOf(id, 'ping')).toBe('a');
      expect(p.ownerOf(id, 'redis')).toBeNull();
    }
    const http = new Set(ids.map((id) => p.ownerOf(id, 'http')));
    expect(http).toEqual(new Set(['a', 'b', 'c']));
  });

  it('when every agent runs every type it is plain rendezvous among them all: declaring types moves nothing', () => {
    const agents = ['c', 'a', 'b'].map((instance_id) => ({ instance_id, check_types: ['http', 'tcp'] }));
    const p = createPlacement(agents);
    for (const id of ids) expect(p.ownerOf(id, 'tcp')).toBe(ownerOf(id, ['a', 'b', 'c']));
  });

  it('the basis changes when an agent’s types change, not when the order of the list does', () => {
    const a = { instance_id: 'a', check_types: ['http'] };
    const b = { instance_id: 'b', check_types: ['http'] };
    expect(placementBasis([a, b])).toBe(placementBasis([b, a]));
    expect(placementBasis([a, b])).not.toBe(placementBasis([a, { ...b, check_types: ['http', 'ping'] }]));
  });
});
