/**
 * A value as JSON text, at most `limit` characters of it: the work stops where the text would, so
 * showing or comparing a value a path selected costs what the answer needs, never the whole of a
 * large selection (`$..*` on a body can select the same nested values many times over). Values come
 * from JSON.parse of a body at most MAX_JSON_DEPTH deep, so the recursion is that shallow.
 */
export interface JsonPrefix {
  text: string;
  /** The whole text is longer than `limit`; `text` is its first `limit` characters. */
  cut: boolean;
}

class Full extends Error {}

export const jsonPrefix = (v: unknown, limit: number): JsonPrefix => {
  const parts: string[] = [];
  let length = 0;
  const add = (s: string) => {
    parts.push(s);
    length += s.length;
    if (length > limit) throw new Full();
  };
  const walk = (x: unknown) => {
    if (Array.isArray(x)) {
      add('[');
      for (let i = 0; i < x.length; i++) {
        if (i > 0) add(',');
        walk(x[i]);
      }
      add(']');
    } else if (typeof x === 'object' && x !== null) {
      add('{');
      let first = true;
      for (const key in x) {
        if (!Object.hasOwn(x, key)) continue;
        if (!first) add(',');
        first = false;
        add(JSON.stringify(key));
        add(':');
        walk((x as Record<string, unknown>)[key]);
      }
      add('}');
    } else {
      add(JSON.stringify(x) ?? 'null');
    }
  };
  try {
    walk(v);
  } catch (e) {
    if (!(e instanceof Full)) throw e;
    return { text: parts.join('').slice(0, limit), cut: true };
  }
  return { text: parts.join(''), cut: false };
};
