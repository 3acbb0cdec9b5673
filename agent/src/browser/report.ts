import type { BrowserContext, Page } from 'playwright-core';
import type { ScriptReport } from '../probe-port.js';
import { redactSecrets } from '../redact.js';

/**
 * What a browser run shows beyond its steps (ScriptReport): the first navigation's Web Vitals, console
 * errors, failed requests and, when the run failed, a screenshot. Watched from the moment the context
 * is made; every text redacted with the run's secrets.
 *
 * Web Vitals: TTFB is the first document's navigation timing (responseStart); LCP and CLS come from
 * PerformanceObservers an init script starts in every top-level document. The first http(s) document
 * tells its values through a binding as they change (so a journey that navigates on keeps them), and
 * they are read once more at the end if the page still shows it.
 */
export const MAX_LINES = 20;
const LINE_CAP = 300;
export const SCREENSHOT_MAX_BYTES = 256 * 1024;
const QUALITIES = [70, 50, 30, 15];
const BINDING = '__lookoutVitals';

const VITALS_SCRIPT = `(() => {
  if (window !== window.top || !/^https?:$/.test(location.protocol)) return;
  const id = Math.random().toString(36).slice(2);
  const v = { id, ttfb: null, lcp: null, cls: 0 };
  const nav = () => performance.getEntriesByType('navigation')[0];
  const send = () => {
    const n = nav();
    if (n) v.ttfb = n.responseStart;
    try { window.${BINDING}(JSON.stringify(v)); } catch {}
  };
  Object.defineProperty(window, '${BINDING}Read', { value: () => { const n = nav(); if (n) v.ttfb = n.responseStart; return JSON.stringify(v); } });
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) v.lcp = e.renderTime || e.startTime; send(); })
      .observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) v.cls += e.value; send(); })
      .observe({ type: 'layout-shift', buffered: true });
  } catch {}
  addEventListener('DOMContentLoaded', send, { once: true });
})();`;

interface Vitals {
  id: string;
  ttfb: number | null;
  lcp: number | null;
  cls: number;
}

const oneLine = (s: string) => {
  const line = s.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > LINE_CAP ? `${line.slice(0, LINE_CAP)}…` : line;
};

/** A URL as reported: no query string or fragment, capped (a data: URL is long). */
export const bareUrl = (raw: string): string => {
  try {
    const u = new URL(raw);
    if (u.protocol === 'data:') return 'data:…';
    return oneLine(`${u.origin}${u.pathname}`);
  } catch {
    return oneLine(raw.split(/[?#]/)[0]!);
  }
};

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);

export interface ReportWatch {
  /** The report's page-side parts; `failed`: take a screenshot too. */
  finish(failed: boolean): Promise<Omit<ScriptReport, 'steps' | 'failed_step' | 'error_line'>>;
}

export const watchRun = async (
  context: BrowserContext,
  page: Page,
  opts: { secrets: Record<string, string>; explain?: (url: string) => string | undefined },
): Promise<ReportWatch> => {
  const redact = (s: string) => redactSecrets(s, opts.secrets);
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];
  let first: Vitals | null = null;

  const take = (raw: unknown) => {
    if (typeof raw !== 'string' || raw.length > 1000) return;
    let v: Partial<Vitals>;
    try {
      v = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof v.id !== 'string') return;
    if (first && first.id !== v.id) return;
    first = { id: v.id, ttfb: num(v.ttfb), lcp: num(v.lcp), cls: num(v.cls) ?? 0 };
  };
  await context.exposeBinding(BINDING, (_source, raw: unknown) => take(raw));
  await context.addInitScript(VITALS_SCRIPT);

  const push = (list: string[], line: string) => {
    if (list.length < MAX_LINES) list.push(redact(oneLine(line)));
  };
  context.on('console', (msg) => {
    if (msg.type() === 'error') push(consoleErrors, msg.text());
  });
  context.on('weberror', (e) => push(consoleErrors, `Uncaught ${e.error().message}`));
  context.on('requestfailed', (req) => {
    const text = req.failure()?.errorText ?? 'failed';
    const why = opts.explain?.(req.url());
    push(failedRequests, `${req.method()} ${bareUrl(req.url())} ${text}${why ? ` (${why})` : ''}`);
  });
  context.on('response', (res) => {
    if (res.status() >= 400)
      push(failedRequests, `${res.request().method()} ${bareUrl(res.url())} ${res.status()}`);
  });

  return {
    async finish(failed) {
      if (first && !page.isClosed()) {
        const now = await page
          .evaluate(`window.${BINDING}Read ? window.${BINDING}Read() : null`)
          .catch(() => null);
        take(now);
      }
      const v = first as Vitals | null;
      const screenshot = failed ? await screenshotOf(page) : null;
      return {
        web_vitals:
          v && v.ttfb !== null
            ? {
                ttfb_ms: Math.round(v.ttfb),
                lcp_ms: v.lcp === null ? null : Math.round(v.lcp),
                cls: Math.round(v.cls * 1000) / 1000,
              }
            : null,
        console_errors: consoleErrors,
        failed_requests: failedRequests,
        screenshot: screenshot ? { type: 'image/jpeg', data: screenshot } : null,
      };
    },
  };
};

/** A JPEG of the viewport, its quality lowered until it fits SCREENSHOT_MAX_BYTES; null if it never does. */
export const screenshotOf = async (page: Page): Promise<Uint8Array | null> => {
  if (page.isClosed()) return null;
  for (const quality of QUALITIES) {
    const shot = await page
      .screenshot({ type: 'jpeg', quality, timeout: 3_000, animations: 'disabled', caret: 'hide' })
      .catch(() => null);
    if (!shot) return null;
    if (shot.length <= SCREENSHOT_MAX_BYTES) return new Uint8Array(shot);
  }
  return null;
};
