/** A list read page by page with the API's opaque cursor: what it says when empty, its table, "Show more". */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

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

/**
 * A list's first page: read once at first (when `enabled`), again by `reload`; the error for the page
 * to show, cleared by the next good read.
 */
export const useList = <T,>(read: () => Promise<{ data: T[] }>, enabled = true) => {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = () =>
    read().then(
      (p) => {
        setItems(p.data);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    if (enabled) void reload();
  }, []);
  return { items, error, setError, reload };
};
