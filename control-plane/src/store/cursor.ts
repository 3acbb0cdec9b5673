import { validationError } from '@lookout/shared';

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

/** Builds a page from `limit + 1` rows fetched newest first. */
export const toPage = <T extends { id: string; created_at: Date }>(rows: T[], limit: number) => {
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, next_cursor: more && last ? encodeCursor(last.created_at, last.id) : null };
};
