import { describe, expect, it } from 'vitest';
import { hiddenClasses, spreadMakesClassEach } from '../../test/support/hidden-classes.js';
import type { ProbeSpec } from './probe-port.js';
import { probeSpec } from './probers/spec-fixture.js';
import { createSpecShapes, specFor } from './spec-shapes.js';

const spec = (i: number): ProbeSpec =>
  probeSpec({ monitor_id: `m${i}`, url: `http://127.0.0.1:${8000 + (i % 32)}/` });

describe('spec shapes', () => {
  it('keep one shape for monitors that differ only in id and URL, and give each run its own id and URL', () => {
    const shapes = createSpecShapes();
    const held = Array.from({ length: 50 }, (_, i) => shapes.acquire(spec(i)));
    expect(shapes.size).toBe(1);
    expect(specFor(held[7]!, 'm7', 'http://a/')).toEqual({ ...spec(7), url: 'http://a/' });
    for (const s of held) shapes.release(s);
    expect(shapes.size).toBe(0);
  });

  // The sentinel: without it a counter that always said 1 would pass the test below.
  it.skipIf(!spreadMakesClassEach)(
    'the counter sees a spread followed by a new key make a class per object (V8 before 12 only)',
    () => {
      expect(hiddenClasses((i) => ({ ...{ a: i }, b: 1 }))).toBeGreaterThan(100);
    },
  );

  it('a run spec per check shares one hidden class, not one per check', () => {
    const shared = createSpecShapes().acquire(spec(0));
    expect(hiddenClasses((i) => specFor(shared, `m${i}`, `http://h${i}/`))).toBe(1);
  });
});
