import { validationError } from '@lookout/shared';

/** The date field a paged list is ordered by (newest first). */
export type PageOrder = 'created_at' | 'at' | 'starts_at' | 'scheduled_at';

/** Keyset pagination position: newest first, ties broken by id. Opaque to clients. */
export interface Cursor {
  t: number;
  id: string;
}

export const encodeCursor = (at: Date, id: string): string =>
  Buffer.from(JSON.stringify({ t: at.getTime(), id } satisfies Cursor)).toString('base64url');

export const decodeCursor = (cursor: string | undefined): Cursor | null => {
  if (cursor === undefined || cursor === '') return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof v.t === 'number' && Number.isFinite(v.t) && typeof v.id === 'string')
      return { t: v.t, id: v.id };
  } catch {
    // fall through
  }
  throw validationError([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
};

/**
 * Builds a page from `limit + 1` rows fetched newest first by (`timeOf`, id); the cursor is the last
 * row's position. Most lists order by `created_at`; pings by their own time `at`.
 */
export const toPage = <T extends { id: string }>(
  rows: T[],
  limit: number,
  timeOf: (row: T) => Date = (row) => (row as unknown as { created_at: Date }).created_at,
) => {
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, next_cursor: more && last ? encodeCursor(timeOf(last), last.id) : null };
};

/** Every item of a paged list, a page at a time (for callers that need all of a bounded list). */
export const allPages = async <T>(
  list: (q: { limit: number; cursor?: string }) => Promise<{ data: T[]; next_cursor: string | null }>,
): Promise<T[]> => {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor === undefined ? { limit: 100 } : { limit: 100, cursor });
    all.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
};
