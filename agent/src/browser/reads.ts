import type { Locator, Page } from 'playwright-core';

/**
 * Reads of page text cut in the page, before they cross to the agent: a script controls its page and
 * could make `document.body` hundreds of MiB, which `page.content()` or `locator.textContent()` would
 * carry whole into the agent's memory. Each read here returns at most READ_CAP characters (a longer one
 * ends in …), arrays at most 1,000 entries, and `evaluate`'s value at most 256 KiB of JSON.
 */
export const READ_CAP = 10_000;
const LIST_CAP = 1_000;
export const EVALUATE_CAP = 256 * 1024;

type Reader = (target: Locator, args: unknown[], timeout: number) => Promise<unknown>;

const cut = `(s, cap) => (s === null || s === undefined ? null : s.length > cap ? s.slice(0, cap) + '…' : s)`;

/** Locator reads done by an expression in the page; page reads with a selector use its first match. */
const LOCATOR_READS: Record<string, Reader> = {
  textContent: (l, _a, timeout) =>
    l.evaluate(new Function('el', 'cap', `return (${cut})(el.textContent, cap)`) as never, READ_CAP, {
      timeout,
    }),
  innerText: (l, _a, timeout) =>
    l.evaluate(
      new Function('el', 'cap', `return (${cut})(el.innerText ?? el.textContent, cap)`) as never,
      READ_CAP,
      {
        timeout,
      },
    ),
  inputValue: (l, _a, timeout) =>
    l.evaluate(
      new Function(
        'el',
        'cap',
        `if (!('value' in el) || !['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) throw new Error('Not an <input>, <textarea> or <select> element'); return (${cut})(el.value, cap)`,
      ) as never,
      READ_CAP,
      { timeout },
    ),
  getAttribute: (l, a, timeout) =>
    l.evaluate(
      new Function('el', 'x', `return (${cut})(el.getAttribute(x.name), x.cap)`) as never,
      { name: String(a[0]), cap: READ_CAP },
      {
        timeout,
      },
    ),
  allTextContents: (l) =>
    l.evaluateAll(
      new Function(
        'els',
        'x',
        `return els.slice(0, x.list).map((el) => (${cut})(el.textContent ?? '', x.cap))`,
      ) as never,
      { cap: READ_CAP, list: LIST_CAP },
    ),
  allInnerTexts: (l) =>
    l.evaluateAll(
      new Function(
        'els',
        'x',
        `return els.slice(0, x.list).map((el) => (${cut})(el.innerText ?? '', x.cap))`,
      ) as never,
      { cap: READ_CAP, list: LIST_CAP },
    ),
};

/** True when `method` reads text that is cut in the page here. */
export const isCappedRead = (method: string) => Object.hasOwn(LOCATOR_READS, method);

/** A locator's (or, with a selector, the page's first match's) read, cut in the page. */
export const cappedRead = (target: Locator, method: string, args: unknown[], timeout: number) =>
  LOCATOR_READS[method]!(target, args, timeout);

/** The page's HTML and title, cut in the page. */
export const pageContent = (page: Page) =>
  page.evaluate(
    `(() => { const d = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : ''; return (${cut})(d + (document.documentElement ? document.documentElement.outerHTML : ''), ${READ_CAP}); })()`,
  );
export const pageTitle = (page: Page) => page.evaluate(`(${cut})(document.title, ${READ_CAP})`);

/**
 * `page.evaluate(source, arg)`: the function runs in the page, and its value crosses only if its JSON is
 * at most EVALUATE_CAP (a larger one fails, in the page, before anything crosses).
 */
export const evaluateCapped = (page: Page, source: string, arg: unknown) =>
  page.evaluate(`(async () => {
    const v = await (${source})(${JSON.stringify(arg ?? null)});
    const s = JSON.stringify(v);
    if (s !== undefined && s.length > ${EVALUATE_CAP}) throw new Error('the value is larger than ${EVALUATE_CAP / 1024} KiB');
    return v;
  })()`);
