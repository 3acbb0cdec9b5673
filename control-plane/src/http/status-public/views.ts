import { AppError } from '@lookout/shared';
import type { StatusPage } from '../../domain/status-pages/status-page-store.js';
import type { ViewCache } from '../../domain/status-pages/view-cache.js';
import { TYPES } from './answer.js';
import { statusPageHtml } from './html.js';
import { atomFeed, componentBadge, pageBadge, rssFeed, statusJson, summaryJson } from './machine.js';

/** One form of a page the cache keeps: its cache kind and how to render it from the public view. */
export interface PublicView {
  kind: string;
  render: Parameters<ViewCache['rendered']>[2];
}

interface Where {
  page: StatusPage;
  /** The page's path (`/status/{slug}`, or '' on a custom domain): its links start there. */
  base: string;
  /** The page's absolute address (feeds and JSON name it). */
  url: string;
}

/** What a reader can GET below a page: path pattern → the view. The first match serves. */
const VIEWS: { path: RegExp; view(where: Where, match: RegExpExecArray): PublicView }[] = [
  {
    path: /^\/?$/,
    view: ({ base }) => ({
      kind: 'html',
      render: (v) => ({ body: statusPageHtml(v, base), type: TYPES.html }),
    }),
  },
  {
    path: /^\/api\/v2\/summary\.json$/,
    view: ({ url }) => ({
      kind: 'summary',
      render: (v) => ({ body: summaryJson(v, url), type: TYPES.json }),
    }),
  },
  {
    path: /^\/api\/v2\/status\.json$/,
    view: ({ url }) => ({ kind: 'status', render: (v) => ({ body: statusJson(v, url), type: TYPES.json }) }),
  },
  {
    path: /^\/feed\.atom$/,
    view: ({ url }) => ({ kind: 'atom', render: (v) => ({ body: atomFeed(v, url), type: TYPES.atom }) }),
  },
  {
    path: /^\/feed\.rss$/,
    view: ({ url }) => ({ kind: 'rss', render: (v) => ({ body: rssFeed(v, url), type: TYPES.rss }) }),
  },
  {
    path: /^\/badge\.svg$/,
    view: () => ({ kind: 'badge', render: (v) => ({ body: pageBadge(v), type: TYPES.svg }) }),
  },
  {
    path: /^\/components\/([0-9a-f-]{36})\/badge\.svg$/,
    view: ({ page }, match) => {
      const id = match[1]!;
      if (!page.components.some((c) => c.id === id))
        throw new AppError('not_found', 'No such component on this page.');
      return { kind: `badge:${id}`, render: (v) => ({ body: componentBadge(v, id) ?? '', type: TYPES.svg }) };
    },
  },
];

/** The view at `rest` (the path below the page), or a 404. */
export const publicView = (where: Where, rest: string): PublicView => {
  for (const { path, view } of VIEWS) {
    const match = path.exec(rest);
    if (match) return view(where, match);
  }
  throw new AppError('not_found', 'Nothing here.');
};
