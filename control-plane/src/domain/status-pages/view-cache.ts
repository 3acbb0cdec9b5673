import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { StatusView } from './public-view.js';
import type { StatusPage } from './status-page-store.js';

/** A rendered public response: its bytes (and gzipped), type and entity tags (one per encoding). */
export interface Rendered {
  body: Buffer;
  gzip: Buffer;
  type: string;
  etag: string;
  gzipEtag: string;
}

interface Entry {
  view: StatusView;
  at: number;
  rendered: Map<string, Rendered>;
}

/**
 * The public pages' cache, in this replica's memory, so that a crowd of readers during an outage
 * costs the store nothing: a page's record (by slug or domain) and what it shows (StatusView) are
 * read at most once per `ttlMs` per page, however many read it; concurrent misses share one load;
 * each rendered form (HTML, JSON, feeds, badges) is built once per view, with its ETag.
 *
 * Invalidation: an edit of the page or of its incidents through this replica drops its entries at
 * once; everything else (a monitor going down, a change made through another replica) shows when the
 * entry expires, within `ttlMs` (5 s by default: shorter than the shortest check interval, so a
 * component turns red within one check interval). Bounded: past `maxPages` the oldest entry goes.
 */
export const createViewCache = (opts: {
  now: () => number;
  ttlMs?: number;
  maxPages?: number;
  load: (page: StatusPage) => Promise<StatusView>;
}) => {
  const ttl = opts.ttlMs ?? 5_000;
  const max = opts.maxPages ?? 10_000;
  const pages = new Map<string, { page: StatusPage | null; at: number }>();
  const views = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();
  const pageLoads = new Map<string, Promise<StatusPage | null>>();
  /** Host and path → the public page and form they answer with (see `remember`). */
  const fast = new Map<string, { pageId: string; kind: string }>();

  const bound = <V>(m: Map<string, V>) => {
    while (m.size > max) m.delete(m.keys().next().value!);
  };

  return {
    /** The page stored under `key` (a slug or domain lookup), read through `find` at most once per ttl. */
    async page(key: string, find: () => Promise<StatusPage | null>): Promise<StatusPage | null> {
      const now = opts.now();
      const hit = pages.get(key);
      if (hit && now - hit.at < ttl) return hit.page;
      let p = pageLoads.get(key);
      if (!p) {
        p = find().finally(() => pageLoads.delete(key));
        pageLoads.set(key, p);
      }
      const page = await p;
      pages.set(key, { page, at: now });
      bound(pages);
      return page;
    },

    /** The form `kind` of the page's current view, rendered by `render` once per view. */
    async rendered(
      page: StatusPage,
      kind: string,
      render: (view: StatusView) => { body: string | Buffer; type: string },
    ) {
      const now = opts.now();
      let entry = views.get(page.id);
      if (!entry || now - entry.at >= ttl) {
        let p = loading.get(page.id);
        if (!p) {
          p = opts
            .load(page)
            .then((view) => ({ view, at: now, rendered: new Map<string, Rendered>() }))
            .finally(() => loading.delete(page.id));
          loading.set(page.id, p);
        }
        entry = await p;
        views.set(page.id, entry);
        bound(views);
      }
      let r = entry.rendered.get(kind);
      if (!r) {
        const out = render(entry.view);
        const body = typeof out.body === 'string' ? Buffer.from(out.body) : out.body;
        const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
        // Compressed once per view: the bars repeat, so a page of 80 kB travels as a few kB.
        r = { body, gzip: gzipSync(body), type: out.type, etag: `"${tag}"`, gzipEtag: `"${tag}-gz"` };
        entry.rendered.set(kind, r);
      }
      // Object.assign, not `{ ...r, view }`: one hidden class for every answer, not one each on Node 20
      // (docs/decisions.md, "Objects on hot paths").
      return Object.assign({}, r, { view: entry.view });
    },

    /**
     * Remembers that `key` (a host and path) answers with the form `kind` of a public page, so that
     * `fresh(key)` can answer the next reader without any lookup while the page's view is fresh.
     */
    remember(key: string, pageId: string, kind: string) {
      if (fast.has(key)) return;
      fast.set(key, { pageId, kind });
      bound(fast);
    },

    /** Whether any answer is remembered (no public page read yet: nothing to look up). */
    hasFast: () => fast.size > 0,

    /** The rendered answer for `key` if it was remembered and its view is fresh; otherwise undefined. */
    fresh(key: string): Rendered | undefined {
      const f = fast.get(key);
      if (!f) return undefined;
      const entry = views.get(f.pageId);
      if (!entry || opts.now() - entry.at >= ttl) return undefined;
      return entry.rendered.get(f.kind);
    },

    /** Forgets what is known of a page (edited, an incident posted): the next reader loads it anew. */
    invalidate(pageId: string) {
      views.delete(pageId);
      for (const [key, f] of fast) if (f.pageId === pageId) fast.delete(key);
      for (const [key, v] of pages) if (v.page === null || v.page.id === pageId) pages.delete(key);
    },
  };
};

export type ViewCache = ReturnType<typeof createViewCache>;
