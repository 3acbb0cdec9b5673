import { Hidden } from './kind.js';

/** Comparing the file's values with the workspace's, where the API hides some of them (`Hidden`). */

export const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Hidden);

/** The file's value against the record's: Hidden values match as far as they can tell. */
export const same = (fileValue: unknown, liveValue: unknown): boolean => {
  if (fileValue === liveValue) return true;
  if (liveValue instanceof Hidden) return liveValue.matches(fileValue);
  if (Array.isArray(fileValue) || Array.isArray(liveValue))
    return (
      Array.isArray(fileValue) &&
      Array.isArray(liveValue) &&
      fileValue.length === liveValue.length &&
      fileValue.every((v, i) => same(v, liveValue[i]))
    );
  if (isPlain(fileValue) || isPlain(liveValue)) {
    if (!isPlain(fileValue) || !isPlain(liveValue)) return false;
    const keys = new Set([...Object.keys(fileValue), ...Object.keys(liveValue)]);
    return [...keys].every((k) => same(fileValue[k] ?? null, liveValue[k] ?? null));
  }
  return (fileValue ?? null) === (liveValue ?? null);
};

export const hasHidden = (v: unknown): boolean =>
  v instanceof Hidden ||
  (Array.isArray(v) ? v.some(hasHidden) : isPlain(v) ? Object.values(v).some(hasHidden) : false);

export const valueAt = (v: unknown, path: readonly (string | number)[]): unknown =>
  path.reduce<unknown>(
    (x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined),
    v,
  );

/** `v` with the value at `path` replaced (copies along the path; `v` is not changed). */
export const withValueAt = (v: unknown, path: readonly (string | number)[], value: unknown): unknown => {
  if (!path.length) return value;
  const [k, ...rest] = path;
  const copy = Array.isArray(v) ? [...v] : { ...(v as Record<string, unknown>) };
  (copy as Record<string | number, unknown>)[k!] = withValueAt(
    (v as Record<string | number, unknown>)?.[k!],
    rest,
    value,
  );
  return copy;
};
