import type { Locator, Page, Response } from 'playwright-core';
import { redactSecrets } from '../redact.js';
import { matchExpected, re2Predicate } from './expect.js';
import {
  CHAIN_METHODS,
  EXPECT_MATCHERS,
  type HostCall,
  type HostReply,
  type Json,
  LOCATOR_METHODS,
  PAGE_METHODS,
} from './protocol.js';
import { cappedRead, evaluateCapped, isCappedRead, pageContent, pageTitle } from './reads.js';

/**
 * The agent's half of a browser check (protocol.ts): the real Playwright page, answering the sandboxed
 * script's calls from the allow-lists only. Locator chains are built with CHAIN_METHODS alone; every
 * call's timeout is bounded by the run's deadline; `expect:` matchers are polled here until they hold
 * or their timeout (5 s by default, as Playwright's expect) passes; values go back as JSON with long
 * strings cut; every error text has the run's secrets redacted.
 */
export interface PageHostOptions {
  /** When the run must end (epoch ms): no call waits past it. Default: 60 s from now. */
  deadlineAt?: number;
  /** The monitor's URL: `page.goto('/login')` is relative to it. */
  baseUrl?: string;
  /** Why a request to this URL failed, as the guard proxy saw it (guard-proxy.ts `failure`). */
  explain?: (url: string) => string | undefined;
}

const CHAIN = new Set<string>(CHAIN_METHODS);
const ON_PAGE = new Set<string>(PAGE_METHODS);
const ON_LOCATOR = new Set<string>(LOCATOR_METHODS);
const MATCHERS = new Set<string>(EXPECT_MATCHERS);
const PAGE_MATCHERS = new Set(['toHaveTitle', 'toHaveURL']);
/** Methods whose first argument is a URL Chromium will load. */
const NAVIGATES = new Set(['goto']);

export const EXPECT_TIMEOUT_MS = 5_000;
const STRING_CAP = 10_000;
const ERROR_CAP = 1_000;
const ARRAY_CAP = 1_000;
const REGEX_CAP = 1_000;
const MAX_VIEWPORT = 4_096;

export class HostCallError extends Error {}

/** `{ $regex, flags }` back to a RegExp, anywhere in an argument; refuses what JSON cannot be. */
const revive = (v: Json, depth = 0): unknown => {
  if (depth > 8) throw new HostCallError('an argument is nested too deep');
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => revive(x, depth + 1));
  if (typeof v.$regex === 'string') {
    if (v.$regex.length > REGEX_CAP)
      throw new HostCallError(`a regular expression is longer than ${REGEX_CAP}`);
    const flags = typeof v.flags === 'string' ? v.flags.replace(/[^imsu]/g, '') : '';
    return new RegExp(v.$regex, flags);
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (k !== '__proto__') out[k] = revive(x, depth + 1);
  return out;
};

/** A value Playwright returned, as JSON (a Response as its status and URL), long strings cut. */
export const toJson = (v: unknown, depth = 0): Json => {
  if (v === undefined || v === null || typeof v === 'function' || typeof v === 'symbol') return null;
  if (typeof v === 'string') return v.length > STRING_CAP ? `${v.slice(0, STRING_CAP)}…` : v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  if (depth > 8) return null;
  if (isResponse(v)) return { status: v.status(), ok: v.ok(), url: toJson(v.url()) };
  if (Array.isArray(v)) return v.slice(0, ARRAY_CAP).map((x) => toJson(x, depth + 1));
  if (typeof v === 'object') {
    const out: Record<string, Json> = {};
    let n = 0;
    for (const [k, x] of Object.entries(v)) {
      if (n++ >= ARRAY_CAP) break;
      out[k] = toJson(x, depth + 1);
    }
    return out;
  }
  return null;
};

const isResponse = (v: unknown): v is Response =>
  typeof v === 'object' && v !== null && 'status' in v && 'request' in v && 'headerValue' in v;

/** Playwright's message without its call log, but with what it waited for; one line, capped. */
export const errorText = (e: unknown): string => {
  const raw = e instanceof Error ? e.message : String(e);
  const [head, log] = raw.split(/\nCall log:\n/);
  const waiting = log && /waiting for (.+)/.exec(log)?.[1];
  const text = `${head!.replace(/\s*\n\s*/g, ' ').trim()}${waiting ? ` (waiting for ${waiting.trim()})` : ''}`;
  return text.length > ERROR_CAP ? `${text.slice(0, ERROR_CAP)}…` : text;
};

export const createPageHost = (page: Page, secrets: Record<string, string>, opts: PageHostOptions = {}) => {
  const deadlineAt = opts.deadlineAt ?? Date.now() + 60_000;
  const remaining = () => Math.max(1, deadlineAt - Date.now());

  /** An option object's `timeout` (and waitForTimeout's ms) held within what is left of the run. */
  const bounded = (method: string, args: unknown[]): unknown[] => {
    const out = [...args];
    if (method === 'waitForTimeout') out[0] = Math.min(Number(out[0]) || 0, remaining());
    const last = out[out.length - 1];
    if (last && typeof last === 'object' && !Array.isArray(last) && !(last instanceof RegExp)) {
      const o = last as { timeout?: unknown };
      if (typeof o.timeout === 'number') {
        const t = o.timeout <= 0 ? remaining() : Math.min(o.timeout, remaining());
        out[out.length - 1] = { ...o, timeout: t };
      }
    }
    return out;
  };

  /** The `timeout` of a call's options, within the run; what is left of the run without one. */
  const timeoutOf = (args: unknown[]): number => {
    const o = args.find(
      (a) => a !== null && typeof a === 'object' && !Array.isArray(a) && !(a instanceof RegExp),
    ) as { timeout?: unknown } | undefined;
    const t = typeof o?.timeout === 'number' && o.timeout > 0 ? o.timeout : remaining();
    return Math.min(t, remaining());
  };

  const checkUrl = (raw: unknown) => {
    if (typeof raw !== 'string') throw new HostCallError('page.goto needs a URL string');
    let u: URL;
    try {
      u = new URL(raw, opts.baseUrl);
    } catch {
      throw new HostCallError(`page.goto: ${raw} is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.href !== 'about:blank')
      throw new HostCallError(`page.goto: only http and https URLs may be opened, not ${u.protocol}`);
    return u.href;
  };

  const locatorOf = (chain: HostCall['chain']): Locator | null => {
    let target: Page | Locator = page;
    for (const link of chain) {
      if (!CHAIN.has(link.method))
        throw new HostCallError(`${link.method} is not a locator method a script may use`);
      if (link.method === 'filter') {
        const o = link.args[0];
        if (o !== undefined && (o === null || typeof o !== 'object' || 'has' in o || 'hasNot' in o))
          throw new HostCallError('filter takes only { hasText, hasNotText, visible }');
      }
      const fn: ((...a: unknown[]) => Locator) | undefined = (
        target as unknown as Record<string, (...a: unknown[]) => Locator>
      )[link.method];
      if (typeof fn !== 'function') throw new HostCallError(`${link.method} is not a page method`);
      target = fn.apply(
        target,
        link.args.map((a) => revive(a)),
      );
    }
    return chain.length === 0 ? null : (target as Locator);
  };

  const run = async (c: HostCall): Promise<unknown> => {
    if (!Array.isArray(c.chain) || !Array.isArray(c.args) || typeof c.method !== 'string')
      throw new HostCallError('a malformed call');
    const locator = locatorOf(c.chain);
    const args = c.args.map((a) => revive(a));
    if (c.method.startsWith('expect:')) {
      const matcher = c.method.slice('expect:'.length);
      if (!MATCHERS.has(matcher))
        throw new HostCallError(`expect(…).${matcher} is not a matcher a script may use`);
      if (!locator && !PAGE_MATCHERS.has(matcher))
        throw new HostCallError(`expect(page).${matcher}: ${matcher} needs a locator, not the page`);
      if (locator && PAGE_MATCHERS.has(matcher))
        throw new HostCallError(`expect(locator).${matcher}: ${matcher} needs the page, not a locator`);
      await matchExpected({ page, locator, matcher, args, not: c.not === true, remaining });
      return null;
    }
    if (locator) {
      if (!ON_LOCATOR.has(c.method))
        throw new HostCallError(`locator.${c.method} is not a method a script may use`);
      if (isCappedRead(c.method)) return within(cappedRead(locator, c.method, args, timeoutOf(args)));
      const fn = (locator as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method]!;
      locator.page().setDefaultTimeout(remaining());
      return within(fn.apply(locator, bounded(c.method, args)));
    }
    if (!ON_PAGE.has(c.method)) throw new HostCallError(`page.${c.method} is not a method a script may use`);
    page.setDefaultTimeout(remaining());
    page.setDefaultNavigationTimeout(remaining());
    if (NAVIGATES.has(c.method)) args[0] = checkUrl(args[0]);
    if (c.method === 'waitForURL' && args[0] instanceof RegExp) args[0] = re2Predicate(args[0]);
    if (c.method === 'evaluate') {
      if (typeof args[0] !== 'string' || args[0].length > 65_536)
        throw new HostCallError('page.evaluate takes a function’s source text');
      // An expression, run by the DevTools protocol (a page's Content-Security-Policy does not stop it).
      return within(evaluateCapped(page, args[0], args[1]));
    }
    if (c.method === 'setViewportSize') {
      const v = args[0] as { width?: unknown; height?: unknown } | null;
      const ok = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_VIEWPORT;
      // A huge viewport would make the failure screenshot (and Chromium's memory) huge.
      if (!v || !ok(v.width) || !ok(v.height))
        throw new HostCallError(
          `page.setViewportSize takes { width, height } of 1 to ${MAX_VIEWPORT} pixels`,
        );
    }
    if (c.method === 'content') return within(pageContent(page));
    if (c.method === 'title') return within(pageTitle(page));
    if (isCappedRead(c.method)) {
      if (typeof args[0] !== 'string') throw new HostCallError(`page.${c.method} needs a selector`);
      const first = page.locator(args[0]).first();
      return within(cappedRead(first, c.method, args.slice(1), timeoutOf(args)));
    }
    if (c.method === 'keyboard.press' || c.method === 'keyboard.type') {
      const k = page.keyboard;
      return within(
        c.method === 'keyboard.press'
          ? k.press(String(args[0]), args[1] as never)
          : k.type(String(args[0]), args[1] as never),
      );
    }
    const fn = (page as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[c.method]!;
    return within(fn.apply(page, bounded(c.method, args)));
  };

  /** No call outlives the run (evaluate and waitForFunction-like calls take no timeout of their own). */
  const within = <T>(p: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      // A little after the deadline, so Playwright's own timeout (which says what it waited for) comes first.
      timer = setTimeout(
        () => reject(new HostCallError('the check’s time ran out during this call')),
        remaining() + 250,
      );
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  };

  const explained = (text: string): string => {
    if (!opts.explain || !/net::ERR_/.test(text)) return text;
    const url = /(?:at|url:?) (\S+:\/\/\S+)/.exec(text)?.[1];
    const why = url && opts.explain(url);
    return why ? `${text} (${why})` : text;
  };

  return {
    async call(c: HostCall): Promise<HostReply> {
      try {
        const value = await run(c);
        return { ok: true, value: toJson(value), url: page.url() };
      } catch (e) {
        return { ok: false, error: redactSecrets(explained(errorText(e)), secrets), url: safeUrl(page) };
      }
    },
  };
};

const safeUrl = (page: Page): string => {
  try {
    return page.url();
  } catch {
    return '';
  }
};
