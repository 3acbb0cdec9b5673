import type { Locator, Page } from 'playwright-core';
import { RE2JS } from 're2js';

/**
 * `expect(page|locator).<matcher>(…)` for browser scripts (playwright-core has no expect of its own):
 * the value is read again and again (100, 250, 500, then every 1000 ms, as Playwright's expect polls)
 * until the matcher holds (or, with `.not`, fails) or its timeout passes: `{ timeout }` in the last
 * argument, 5 s by default, never past the run's deadline. Regular expressions are matched here with
 * re2js (linear time whatever the pattern: a script cannot stall the agent with one).
 */
export interface MatchInput {
  page: Page;
  locator: Locator | null;
  matcher: string;
  args: unknown[];
  not: boolean;
  /** Milliseconds left in the run. */
  remaining: () => number;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const POLLS = [100, 250, 500, 1000];
const TEXT_CAP = 64 * 1024;

type Expected = string | RegExp | number | undefined;

const re2Of = (re: RegExp): RE2JS => {
  let flags = 0;
  if (re.flags.includes('i')) flags |= RE2JS.CASE_INSENSITIVE;
  if (re.flags.includes('m')) flags |= RE2JS.MULTILINE;
  if (re.flags.includes('s')) flags |= RE2JS.DOTALL;
  return RE2JS.compile(re.source, flags);
};

const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A RegExp as a function re2js runs (for Playwright calls that would match on the agent: waitForURL). */
export const re2Predicate = (re: RegExp) => {
  const compiled = re2Of(re);
  return (url: URL) => compiled.matcher(url.href.slice(0, TEXT_CAP)).find();
};

const show = (v: unknown) => (v instanceof RegExp ? String(v) : JSON.stringify(v));

/** One reading of the value, and whether it matches `expected`. */
const check = async (
  m: MatchInput,
  timeout: number,
): Promise<{ pass: boolean; received: unknown; expected: unknown }> => {
  const { page, locator: l, args } = m;
  const expected = args[0] as Expected;
  const t = { timeout: Math.max(1, timeout) };
  const text = (received: string | null, contains: boolean) => {
    const r = received ?? '';
    if (expected instanceof RegExp) {
      const found = re2Of(expected).matcher(r.slice(0, TEXT_CAP)).find();
      return { pass: found, received: r, expected };
    }
    const e = normalize(String(expected ?? ''));
    return { pass: contains ? normalize(r).includes(e) : normalize(r) === e, received: r, expected: e };
  };
  switch (m.matcher) {
    case 'toHaveTitle':
      return text(await page.title(), false);
    case 'toHaveURL':
      return text(page.url(), false);
  }
  const locator = l!;
  switch (m.matcher) {
    case 'toBeVisible':
      return { pass: await locator.isVisible(), received: 'hidden', expected: 'visible' };
    case 'toBeHidden':
      return { pass: await locator.isHidden(), received: 'visible', expected: 'hidden' };
    case 'toBeEnabled':
      return { pass: await locator.isEnabled(t), received: 'disabled', expected: 'enabled' };
    case 'toBeDisabled':
      return { pass: await locator.isDisabled(t), received: 'enabled', expected: 'disabled' };
    case 'toBeChecked':
      return { pass: await locator.isChecked(t), received: 'unchecked', expected: 'checked' };
    case 'toHaveText':
      return text(await locator.textContent(t), false);
    case 'toContainText':
      return text(await locator.textContent(t), true);
    case 'toHaveValue':
      return text(await locator.inputValue(t), false);
    case 'toHaveCount': {
      const n = await locator.count();
      return { pass: n === Number(expected), received: n, expected };
    }
    case 'toHaveAttribute': {
      const name = String(expected);
      const value = await locator.getAttribute(name, t);
      const want = args[1] as Expected;
      if (want === undefined || (typeof want === 'object' && !(want instanceof RegExp)))
        return { pass: value !== null, received: value, expected: `attribute ${name}` };
      if (want instanceof RegExp)
        return {
          pass: value !== null && re2Of(want).matcher(value.slice(0, TEXT_CAP)).find(),
          received: value,
          expected: want,
        };
      return { pass: value === String(want), received: value, expected: want };
    }
  }
  throw new Error(`${m.matcher} is not a matcher`);
};

/** Resolves once the matcher holds; throws, naming what was expected and received, once it has not in time. */
export const matchExpected = async (m: MatchInput): Promise<void> => {
  const last = m.args[m.args.length - 1];
  const asked =
    last &&
    typeof last === 'object' &&
    !(last instanceof RegExp) &&
    typeof (last as { timeout?: unknown }).timeout === 'number'
      ? (last as { timeout: number }).timeout
      : DEFAULT_TIMEOUT_MS;
  const timeout = Math.min(asked, m.remaining());
  const until = Date.now() + timeout;
  const subject = m.locator ? 'locator' : 'page';
  let lastSeen: { received: unknown; expected: unknown } = { received: undefined, expected: m.args[0] };
  let lastError: string | null = null;
  for (let i = 0; ; i++) {
    try {
      const r = await check(m, until - Date.now());
      lastError = null;
      lastSeen = r;
      if (r.pass !== m.not) return;
    } catch (e) {
      const msg = e instanceof Error ? e.message.split('\n')[0]! : String(e);
      if (/strict mode violation|not a matcher|Invalid|error parsing regexp/i.test(msg))
        throw new Error(`expect(${subject}).${m.matcher}: ${msg}`);
      lastError = msg;
    }
    const wait = POLLS[Math.min(i, POLLS.length - 1)]!;
    if (Date.now() + wait > until) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  const not = m.not ? 'not.' : '';
  const why =
    lastError ??
    `expected ${m.not ? 'not ' : ''}${show(lastSeen.expected)}, received ${show(lastSeen.received)}`;
  throw new Error(`expect(${subject}).${not}${m.matcher}: ${why} (after ${timeout} ms)`);
};
