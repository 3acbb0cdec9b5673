import { describe, expect, it } from 'vitest';
import { hiddenClasses } from '../../../../test/support/hidden-classes.js';
import type { StatusView } from './public-view.js';
import type { StatusPage } from './status-page-store.js';
import { createViewCache } from './view-cache.js';

const page = (id: string) => ({ id }) as StatusPage;
const view = (n: number) => ({ page: { name: `v${n}` } }) as unknown as StatusView;

const setup = () => {
  let now = 0;
  let loads = 0;
  const cache = createViewCache({
    now: () => now,
    ttlMs: 5000,
    load: async () => {
      loads++;
      // A load takes a turn of the event loop, as a store read does.
      await new Promise((r) => setImmediate(r));
      return view(loads);
    },
  });
  const render = (v: StatusView) => ({ body: v.page.name, type: 'text/plain' });
  return {
    cache,
    render,
    loads: () => loads,
    advance: (ms: number) => {
      now += ms;
    },
  };
};

describe('the status view cache', () => {
  it('loads a page once per ttl, renders each form once per view, with an ETag per encoding', async () => {
    const t = setup();
    const a = await t.cache.rendered(page('p'), 'html', t.render);
    for (let i = 0; i < 100; i++) await t.cache.rendered(page('p'), 'html', t.render);
    expect(t.loads()).toBe(1);
    expect(a.body.toString()).toBe('v1');
    expect(a.etag).toMatch(/^"[\w-]{27}"$/);
    expect(a.gzipEtag).toBe(a.etag.replace(/"$/, '-gz"'));
    t.advance(4999);
    await t.cache.rendered(page('p'), 'html', t.render);
    expect(t.loads()).toBe(1);
    t.advance(1);
    const b = await t.cache.rendered(page('p'), 'html', t.render);
    expect(t.loads()).toBe(2);
    expect(b.body.toString()).toBe('v2');
    expect(b.etag).not.toBe(a.etag);
  });

  it('answers share one hidden class, not one per answer', async () => {
    const t = setup();
    const answers: object[] = [];
    for (let i = 0; i < 200; i++) answers.push(await t.cache.rendered(page('p'), 'html', t.render));
    expect(hiddenClasses((i) => answers[i]!)).toBe(1);
  });

  it('concurrent misses share one load', async () => {
    const t = setup();
    const all = await Promise.all(
      Array.from({ length: 50 }, () => t.cache.rendered(page('p'), 'html', t.render)),
    );
    expect(t.loads()).toBe(1);
    expect(new Set(all.map((r) => r.etag)).size).toBe(1);
  });

  it('invalidation drops the view and every remembered answer of the page, at once', async () => {
    const t = setup();
    await t.cache.rendered(page('p'), 'html', t.render);
    await t.cache.rendered(page('q'), 'html', t.render);
    t.cache.remember('acme.localhost|/status/p', 'p', 'html');
    t.cache.remember('acme.localhost|/status/q', 'q', 'html');
    expect(t.cache.fresh('acme.localhost|/status/p')?.body.toString()).toBe('v1');
    expect(t.cache.fresh('other.localhost|/status/p')).toBeUndefined();
    t.cache.invalidate('p');
    expect(t.cache.fresh('acme.localhost|/status/p')).toBeUndefined();
    expect(t.cache.fresh('acme.localhost|/status/q')?.body.toString()).toBe('v2');
    // An expired view is not answered from memory either.
    t.advance(5000);
    expect(t.cache.fresh('acme.localhost|/status/q')).toBeUndefined();
  });

  it('page lookups are cached too, misses included, until invalidated', async () => {
    const t = setup();
    let finds = 0;
    const find = async () => {
      finds++;
      return null;
    };
    expect(await t.cache.page('ws/acme', find)).toBeNull();
    expect(await t.cache.page('ws/acme', find)).toBeNull();
    expect(finds).toBe(1);
    t.cache.invalidate('new-page');
    expect(await t.cache.page('ws/acme', find)).toBeNull();
    expect(finds).toBe(2);
  });
});
