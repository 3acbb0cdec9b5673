/**
 * The code a browser script runs beside, INSIDE its vm context (docs/scripted-checks.md, "The browser
 * sandbox"). The agent sends this function's source text to the sandbox child (sandbox-child.ts), which
 * compiles it in the context and calls it once with the bridge: so it may use only its parameters and
 * the context's own built-ins, never an import or a variable of this module.
 *
 * It builds `page`, `expect`, `test`, `url`, `secrets` and `console` out of the context's own objects
 * and holds the bridge in its closure (never on the global). Only strings cross the bridge, both ways,
 * and every promise and error the script sees is made here, so no object of the child's realm (whose
 * `Function` could reach `process`) is ever reachable from the script.
 */

/** The method lists of protocol.ts the bootstrap builds `page`, locators and `expect` from. */
export interface SandboxMethods {
  chain: readonly string[];
  page: readonly string[];
  locator: readonly string[];
  matchers: readonly string[];
}

/** The child's side of the bridge: a call or the report in, an id (or why refused) out. */
export type Bridge = (text: unknown) => string;

/**
 * Returns the two functions the child calls: `deliver` (a host reply, as JSON text) and `start` (the
 * compiled script's function).
 */
export function bootstrap(bridge: Bridge, initText: string) {
  // biome-ignore lint/suspicious/noRedundantUseStrict: compiled from its source text, where the module's strictness is lost
  'use strict';
  const G = globalThis as Record<string, unknown>;
  const apply = Reflect.apply;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const keys = Object.keys;
  const OError = Error;
  const OPromise = Promise;
  const then = Promise.prototype.then;
  const now = Date.now;
  const isArray = Array.isArray;
  const push = Array.prototype.push;
  const exec = RegExp.prototype.exec;
  const OMap = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  const OWeakMap = WeakMap;
  const weakGet = WeakMap.prototype.get;
  const weakSet = WeakMap.prototype.set;
  const regexpProto = RegExp.prototype;
  const is = Object.is;
  const defineProperty = Object.defineProperty;
  const sourceOf = Object.getOwnPropertyDescriptor(RegExp.prototype, 'source')?.get as () => string;
  const flagsOf = Object.getOwnPropertyDescriptor(RegExp.prototype, 'flags')?.get as () => string;
  /** The RegExp's source when `v` is one (its internal slot, not its prototype, decides), else null. */
  const regexSource = (v: unknown): string | null => {
    try {
      return v !== regexpProto ? (apply(sourceOf, v, []) as string) : null;
    } catch {
      return null;
    }
  };
  const isRegExp = (v: unknown): v is RegExp => regexSource(v) !== null;
  const MAX_TEXT = 64 * 1024;
  /** Steps reported: the first 100 (a loop of steps would make the report too large to send). */
  const MAX_STEPS = 100;
  const LINE = /script\.js:(\d+)/;

  const init = parse(initText) as {
    url: string;
    secrets: Record<string, string>;
    methods: SandboxMethods;
  };
  const M = init.methods;
  let lastUrl = 'about:blank';
  let finished = false;
  let depth = 0;
  const steps: { name: string; ok: boolean; duration_ms: number; error: string | null; status_code: null }[] =
    [];
  const pending = new OMap<
    number,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void; line: number | null }
  >();
  /** The script line of a failed host call's error (the call site, captured when the call was made). */
  const errorLines = new OWeakMap<object, number | null>();
  /** page and locators: what `expect(x)` sends to the host, and what a locator argument becomes. */
  const chains = new OWeakMap<object, { method: string; args: unknown[] }[]>();

  function lineOf(stack: unknown): number | null {
    if (typeof stack !== 'string') return null;
    const m = apply(exec, LINE, [stack]) as RegExpExecArray | null;
    return m ? Number(m[1]) : null;
  }
  function text(v: unknown, max = 2000): string {
    let s: string;
    try {
      s = typeof v === 'string' ? v : String(v);
    } catch {
      s = '(unprintable)';
    }
    return s.length > max ? `${s.slice(0, max)}…` : s;
  }
  function describe(e: unknown): { error: string; line: number | null } {
    if (e !== null && typeof e === 'object') {
      try {
        const err = e as { name?: unknown; message?: unknown; stack?: unknown };
        const name = typeof err.name === 'string' ? err.name : 'Error';
        const message = text(err.message);
        const known = apply(weakGet, errorLines, [e]) as number | null | undefined;
        return {
          error: name === 'Error' ? message : `${name}: ${message}`,
          line: known !== undefined ? known : lineOf(err.stack),
        };
      } catch {
        return { error: 'the script threw an unreadable error', line: null };
      }
    }
    return { error: text(e), line: null };
  }
  function fmt(v: unknown): string {
    try {
      const s = typeof v === 'string' ? stringify(v) : v === undefined ? 'undefined' : stringify(v);
      return text(s ?? String(v), 200);
    } catch {
      return text(v, 200);
    }
  }
  /** A value as JSON the host reads: RegExp as { $regex, flags }, a locator as { $locator }, a function as its source. */
  function toJson(v: unknown, d: number): unknown {
    if (d > 20) throw new OError('an argument is nested too deeply');
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    if (v === undefined) return null;
    if (typeof v === 'function') return { $function: text(v, MAX_TEXT) };
    if (typeof v !== 'object') throw new OError(`an argument of type ${typeof v} cannot be sent to the page`);
    const chain = apply(weakGet, chains, [v]);
    if (chain) return { $locator: chain };
    const source = regexSource(v);
    if (source !== null) return { $regex: source, flags: apply(flagsOf, v, []) };
    if (isArray(v)) {
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) apply(push, out, [toJson(v[i], d + 1)]);
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const k of keys(v))
      if ((v as Record<string, unknown>)[k] !== undefined)
        out[k] = toJson((v as Record<string, unknown>)[k], d + 1);
    return out;
  }

  function call(chain: unknown[], method: string, args: unknown[], not?: boolean): Promise<unknown> {
    const line = lineOf(new OError().stack);
    let r: unknown;
    try {
      const message = stringify({
        t: 'call',
        call: { chain, method, args: toJson(args, 0), not: not === true },
      });
      r = bridge(message);
    } catch (e) {
      const err = new OError(`${method}: ${describe(e).error}`);
      apply(weakSet, errorLines, [err, line]);
      return OPromise.reject(err);
    }
    const id = typeof r === 'string' ? Number(r) : Number.NaN;
    if (!(id > 0)) {
      const err = new OError(`${method}: ${typeof r === 'string' ? r : 'refused'}`);
      apply(weakSet, errorLines, [err, line]);
      return OPromise.reject(err);
    }
    return new OPromise((resolve, reject) => {
      apply(mapSet, pending, [id, { resolve, reject, line }]);
    });
  }
  async function step<T>(name: unknown, fn: () => T | Promise<T>): Promise<T> {
    if (typeof fn !== 'function') throw new OError('test.step(name, fn): fn must be a function');
    if (depth > 0) return await fn();
    depth++;
    const started = now();
    const s = {
      name: text(name, 200),
      ok: true,
      duration_ms: 0,
      error: null as string | null,
      status_code: null,
    };
    if (steps.length < MAX_STEPS) apply(push, steps, [s]);
    try {
      return await fn();
    } catch (e) {
      s.ok = false;
      s.error = text(describe(e).error, 500);
      throw e;
    } finally {
      s.duration_ms = now() - started;
      depth--;
    }
  }

  function locator(chain: { method: string; args: unknown[] }[]): object {
    const loc: Record<string, unknown> = {};
    for (const m of M.chain)
      loc[m] = (...args: unknown[]) => locator([...chain, { method: m, args: toJson(args, 0) as unknown[] }]);
    for (const m of M.locator) loc[m] = (...args: unknown[]) => call(chain, m, args);
    freeze(loc);
    apply(weakSet, chains, [loc, chain]);
    return loc;
  }
  const page: Record<string, unknown> = {};
  for (const m of M.chain) {
    if (m === 'first' || m === 'last' || m === 'nth' || m === 'filter') continue;
    page[m] = (...args: unknown[]) => locator([{ method: m, args: toJson(args, 0) as unknown[] }]);
  }
  for (const m of M.page) {
    if (m.startsWith('keyboard.')) continue;
    page[m] =
      m === 'goto' || m === 'reload'
        ? (...args: unknown[]) =>
            depth > 0
              ? call([], m, args)
              : step(m === 'goto' ? `goto ${text(args[0], 150)}` : 'reload', () => call([], m, args))
        : (...args: unknown[]) => call([], m, args);
  }
  page.keyboard = freeze({
    press: (...args: unknown[]) => call([], 'keyboard.press', args),
    type: (...args: unknown[]) => call([], 'keyboard.type', args),
  });
  page.url = () => lastUrl;
  freeze(page);
  apply(weakSet, chains, [page, []]);

  function plainMatchers(value: unknown, negate: boolean): Record<string, unknown> {
    const check = (pass: boolean, what: string) => {
      if (pass === negate) throw new OError(`expect(${fmt(value)})${negate ? '.not' : ''}.${what}`);
    };
    const equal = (a: unknown, b: unknown, d: number): boolean => {
      if (is(a, b)) return true;
      if (d > 50 || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
      if (isArray(a) !== isArray(b)) return false;
      const ka = keys(a);
      const kb = keys(b);
      if (ka.length !== kb.length) return false;
      for (const k of ka)
        if (!equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], d + 1)) return false;
      return true;
    };
    return {
      toBe: (x: unknown) => check(is(value, x), `toBe(${fmt(x)})`),
      toEqual: (x: unknown) => check(equal(value, x, 0), `toEqual(${fmt(x)})`),
      toContain: (x: unknown) =>
        check(
          (typeof value === 'string' && typeof x === 'string' && value.includes(x)) ||
            (isArray(value) && value.includes(x)),
          `toContain(${fmt(x)})`,
        ),
      toBeTruthy: () => check(!!value, 'toBeTruthy()'),
      toBeFalsy: () => check(!value, 'toBeFalsy()'),
      toBeNull: () => check(value === null, 'toBeNull()'),
      toBeDefined: () => check(value !== undefined, 'toBeDefined()'),
      toBeUndefined: () => check(value === undefined, 'toBeUndefined()'),
      toHaveLength: (n: unknown) =>
        check(
          (typeof value === 'string' || isArray(value)) && (value as { length: number }).length === n,
          `toHaveLength(${fmt(n)})`,
        ),
      toMatch: (re: unknown) =>
        check(
          typeof value === 'string' &&
            (typeof re === 'string' ? value.includes(re) : isRegExp(re) && apply(exec, re, [value]) !== null),
          `toMatch(${isRegExp(re) ? text(re) : fmt(re)})`,
        ),
      toBeGreaterThan: (n: number) => check((value as number) > n, `toBeGreaterThan(${fmt(n)})`),
      toBeGreaterThanOrEqual: (n: number) =>
        check((value as number) >= n, `toBeGreaterThanOrEqual(${fmt(n)})`),
      toBeLessThan: (n: number) => check((value as number) < n, `toBeLessThan(${fmt(n)})`),
      toBeLessThanOrEqual: (n: number) => check((value as number) <= n, `toBeLessThanOrEqual(${fmt(n)})`),
    };
  }
  function hostMatchers(chain: unknown[], negate: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of M.matchers) out[m] = (...args: unknown[]) => call(chain, `expect:${m}`, args, negate);
    return out;
  }
  function expect(value: unknown): object {
    const chain = value !== null && typeof value === 'object' ? apply(weakGet, chains, [value]) : undefined;
    const make = (negate: boolean) => (chain ? hostMatchers(chain, negate) : plainMatchers(value, negate));
    const positive = make(false);
    positive.not = freeze(make(true));
    return freeze(positive);
  }
  const test = freeze({ step });
  const noop = () => {};
  const consoleObject = freeze({ log: noop, info: noop, warn: noop, error: noop, debug: noop });
  const secrets: Record<string, string> = {};
  for (const k of keys(init.secrets)) secrets[k] = String(init.secrets[k]);

  for (const [name, value] of [
    ['page', page],
    ['expect', freeze(expect)],
    ['test', test],
    ['url', String(init.url)],
    ['secrets', freeze(secrets)],
    ['console', consoleObject],
  ] as const) {
    defineProperty(G, name, { value, writable: false, configurable: false, enumerable: false });
  }

  function finish(ok: boolean, e: unknown): void {
    if (finished) return;
    finished = true;
    const d = ok ? { error: null, line: null } : describe(e);
    for (const report of [
      { ok, error: d.error, line: d.line, steps },
      { ok: false, error: 'the report was too large', line: null, steps: [] },
    ]) {
      try {
        if (bridge(stringify({ t: 'done', ...report })) === '') return;
      } catch {
        // The outside ends the run on its own caps.
      }
    }
  }
  function deliver(id: number, replyText: string): void {
    const p = apply(mapGet, pending, [id]) as
      | { resolve: (v: unknown) => void; reject: (e: unknown) => void; line: number | null }
      | undefined;
    if (!p) return;
    apply(mapDelete, pending, [id]);
    const reply = parse(replyText) as { ok: boolean; value?: unknown; error?: string; url?: string };
    if (typeof reply.url === 'string') lastUrl = reply.url;
    if (reply.ok) {
      p.resolve(reply.value);
      return;
    }
    const err = new OError(text(reply.error));
    apply(weakSet, errorLines, [err, p.line]);
    p.reject(err);
  }
  function start(fn: unknown): void {
    let p: unknown;
    try {
      if (typeof fn !== 'function') throw new OError('the script did not compile to a function');
      p = fn();
    } catch (e) {
      finish(false, e);
      return;
    }
    apply(then, OPromise.resolve(p), [() => finish(true, null), (e: unknown) => finish(false, e)]);
  }
  return { deliver, start };
}
