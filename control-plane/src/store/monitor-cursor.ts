import { validationError } from '@lookout/shared';
import type { MonitorSort } from '../domain/monitors/monitor-status.js';

/**
 * Keyset positions of the monitor list, one shape per order, opaque to clients (both adapters):
 * `status` — bucket (index in STATUS_ORDER), folded name, id; `name` — folded name, id;
 * `last_change` — when the status last changed (ms), id; `response_time` — the sort's response time
 * (null: none, those come last), id; `created` — creation time (ms), id.
 */
export type MonitorCursor =
  | { s: 'status'; b: number; k: string; id: string }
  | { s: 'name'; k: string; id: string }
  | { s: 'last_change'; t: number; id: string }
  | { s: 'response_time'; r: number | null; id: string }
  | { s: 'created'; t: number; id: string };

export const encodeMonitorCursor = (c: MonitorCursor): string =>
  Buffer.from(JSON.stringify(c)).toString('base64url');

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string' && v.length <= 1000;

/** The position in `sort`'s order, or null without a cursor; 422 for any other cursor. */
export const decodeMonitorCursor = (
  cursor: string | undefined,
  sort: MonitorSort | 'created',
): MonitorCursor | null => {
  if (cursor === undefined || cursor === '') return null;
  let v: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object') v = parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  const ok =
    v !== null &&
    v.s === sort &&
    isStr(v.id) &&
    (sort === 'status'
      ? Number.isInteger(v.b) && (v.b as number) >= 0 && (v.b as number) < 5 && isStr(v.k)
      : sort === 'name'
        ? isStr(v.k)
        : sort === 'response_time'
          ? v.r === null || isNum(v.r)
          : isNum(v.t));
  if (!ok)
    throw validationError([
      { field: 'cursor', message: `is not a cursor this API returned for sort=${sort}` },
    ]);
  return v as unknown as MonitorCursor;
};
