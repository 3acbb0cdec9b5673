/** A list read page by page with the API's opaque cursor: its hook, what it says when empty, its table, "Show more". */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { usePoll } from '../poll.js';

/** What a list says when it has nothing to show. */
export const Empty = (props: { children: ComponentChildren }) => <p class="empty">{props.children}</p>;

/** Nothing while loading; the empty state for no items; otherwise the items, in a scrolling table wrapper. */
export const ListBody = <T,>(props: {
  items: readonly T[] | null | undefined;
  empty: ComponentChildren;
  children: (items: readonly T[]) => ComponentChildren;
}) =>
  !props.items ? null : props.items.length === 0 ? (
    <Empty>{props.empty}</Empty>
  ) : (
    <div class="table-wrap">{props.children(props.items)}</div>
  );

/** "Show more" under a list while the API gave a cursor for the next page; nothing once it did not. */
export const ShowMore = (props: {
  next: string | null | undefined;
  onMore: () => void;
  label?: string;
  busy?: boolean;
}) =>
  props.next ? (
    <div class="panel-foot">
      <button type="button" class="button" onClick={props.onMore} disabled={props.busy}>
        {props.label ?? 'Show more'}
      </button>
    </div>
  ) : null;

/** Every page of a list, for a page that shows it whole (a workspace's users): `read(cursor?)` as for useList. */
export const readAll = async <T,>(
  read: (cursor?: string) => Promise<{ data: T[]; next_cursor?: string | null }>,
): Promise<T[]> => {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    all.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
};

const idOf = (item: unknown) => (item as { id?: unknown }).id;

/**
 * A list read from the API, a page at a time by its opaque cursor, optionally live:
 * - `read(cursor?)` reads one page (no cursor: the first). It is read when the list appears and again
 *   when `deps` or `enabled` change (the list empties meanwhile, and answers asked before are dropped).
 * - `more()` appends the page after the last one read (for "Show more"); `next` says whether there is one.
 * - `poll` re-reads the first page on usePoll's timing (poll.ts). Once `more()` appended a page,
 *   'until-more' stops re-reading (rows do not move under the reader) and 'keep-more' puts the fresh
 *   first page above the rows read after it (rows matched by `id`).
 * - `reload()` reads the first page again and drops the pages `more()` appended (after a change).
 */
export const useList = <T,>(
  read: (cursor?: string) => Promise<{ data: T[]; next_cursor?: string | null }>,
  opts: { deps?: unknown[]; enabled?: boolean; poll?: 'until-more' | 'keep-more' | false } = {},
) => {
  const { deps = [], enabled = true, poll = false } = opts;
  const [list, setList] = useState<{ items: T[] | null; next: string | null }>({ items: null, next: null });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** `gen` counts resets: an answer to an older one is dropped. `more`: a later page was appended. */
  const live = useRef({ read, gen: 0, more: false });
  live.current.read = read;
  const failed = (gen: number) => (e: unknown) => {
    if (gen === live.current.gen) setError(e instanceof Error ? e.message : 'The list could not be loaded.');
  };

  const first = async () => {
    const at = live.current;
    const gen = at.gen;
    if (at.more && poll === 'until-more') return;
    await at.read().then((page) => {
      if (gen !== at.gen || (at.more && poll !== 'keep-more')) return;
      setError(null);
      if (!at.more) return setList({ items: page.data, next: page.next_cursor ?? null });
      const fresh = new Set(page.data.map(idOf));
      setList((old) => ({
        ...old,
        items: [...page.data, ...(old.items ?? []).filter((i) => !fresh.has(idOf(i)))],
      }));
    }, failed(gen));
  };
  const more = async () => {
    const at = live.current;
    const gen = at.gen;
    if (!list.next) return;
    setBusy(true);
    await at.read(list.next).then((page) => {
      if (gen !== at.gen) return;
      at.more = true;
      setError(null);
      setList((old) => ({ items: [...(old.items ?? []), ...page.data], next: page.next_cursor ?? null }));
    }, failed(gen));
    if (gen === at.gen) setBusy(false);
  };
  const reload = () => {
    live.current.gen++;
    live.current.more = false;
    setBusy(false);
    return first();
  };

  useEffect(() => {
    live.current.gen++;
    live.current.more = false;
    setList({ items: null, next: null });
    setBusy(false);
    if (enabled && !poll) void first();
  }, [...deps, enabled]);
  usePoll(first, [...deps, enabled, poll], Boolean(enabled && poll));
  return { items: list.items, next: list.next, error, setError, busy, more, reload };
};
