import type { Logger } from '@lookout/shared';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * One Chromium per agent, launched on the first browser check and again if it dies, and a fresh
 * browser context per run (closed after it, always): docs/scripted-checks.md says what a context
 * keeps apart and what the shared process does not. At most `concurrency` runs hold a context at
 * once; the others wait in a bounded queue, in order, for as long as their deadline allows.
 */
export interface BrowserPoolOptions {
  executablePath: string;
  /** The guard proxy (guard-proxy.ts): Chromium's only way out. */
  proxyUrl: string;
  concurrency: number;
  /** Runs waiting for a slot; beyond, a run fails at once. */
  queueMax?: number;
  log?: Logger;
  /** Chromium's launch arguments beyond the pool's own (tests: host resolver rules). */
  extraArgs?: readonly string[];
}

export const VIEWPORT = { width: 1280, height: 720 } as const;

/**
 * The flags every launch has: no GPU, no background traffic of Chromium's own (updates, metrics,
 * safe browsing), QUIC off (UDP would not go through the proxy) and WebRTC kept off UDP that bypasses
 * it; loopback through the proxy too (Chromium bypasses proxies for it by default).
 */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--proxy-bypass-list=<-loopback>',
  '--disable-features=DnsOverHttps',
] as const;

/**
 * Chromium's own sandbox (namespaces, seccomp) stays on unless it cannot run: as root Chromium
 * refuses to start with it, so an agent running as root passes --no-sandbox; elsewhere a launch that
 * fails for want of a sandbox (no user namespaces) is tried once more without, and logged (the page is
 * then kept apart by the context and the guard only: docs/scripted-checks.md).
 */
export const needsNoSandbox = (uid = process.getuid?.() ?? -1) => uid === 0;

export class BrowserBusyError extends Error {}

export interface BrowserPool {
  /** Runs `fn` with a new context and page once a slot is free; the context is closed after, whatever happens. */
  withPage<T>(deadlineAt: number, fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T>;
  /** Runs holding a slot, and waiting for one. */
  readonly busy: number;
  readonly waiting: number;
  close(): Promise<void>;
}

/** How long closing a context may take before the browser is restarted instead. */
const CLOSE_MS = 5_000;

export const createBrowserPool = (opts: BrowserPoolOptions): BrowserPool => {
  const queueMax = opts.queueMax ?? 100;
  let browser: Browser | null = null;
  let launching: Promise<Browser> | null = null;
  let closed = false;
  let busy = 0;
  const waiters: Array<{ go: () => void; at: number }> = [];

  /** Set once a launch with Chromium's sandbox failed for want of one (no user namespaces here). */
  let sandboxUnavailable = false;
  const launchWith = (noSandbox: boolean) =>
    chromium.launch({
      executablePath: opts.executablePath,
      headless: true,
      proxy: { server: opts.proxyUrl, bypass: '' },
      args: [...CHROMIUM_ARGS, ...(noSandbox ? ['--no-sandbox'] : []), ...(opts.extraArgs ?? [])],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
    });

  const launch = async (): Promise<Browser> => {
    let noSandbox = needsNoSandbox() || sandboxUnavailable;
    let b: Browser;
    try {
      b = await launchWith(noSandbox);
    } catch (e) {
      // A container without user namespaces (Docker's default seccomp profile) has no sandbox to give.
      if (noSandbox || !/sandbox/i.test((e as Error).message)) throw e;
      opts.log?.warn(
        { err: (e as Error).message.split('\n')[0] },
        'Chromium’s own sandbox cannot run here (no user namespaces); browser checks run it with --no-sandbox',
      );
      sandboxUnavailable = true;
      noSandbox = true;
      b = await launchWith(true);
    }
    opts.log?.info({ no_sandbox: noSandbox }, 'Chromium started for browser checks');
    b.on('disconnected', () => {
      if (browser === b) browser = null;
      if (!closed) opts.log?.warn('Chromium exited; the next browser check starts it again');
    });
    return b;
  };

  const getBrowser = async (): Promise<Browser> => {
    if (browser?.isConnected()) return browser;
    launching ??= launch().finally(() => {
      launching = null;
    });
    browser = await launching;
    return browser;
  };

  const acquire = (deadlineAt: number): Promise<void> => {
    if (busy < opts.concurrency && waiters.length === 0) {
      busy++;
      return Promise.resolve();
    }
    if (waiters.length >= queueMax)
      return Promise.reject(new BrowserBusyError(`${queueMax} browser checks already wait for a browser`));
    return new Promise((resolve, reject) => {
      const w = { go: () => resolve(), at: deadlineAt };
      waiters.push(w);
      const timer = setTimeout(
        () => {
          const i = waiters.indexOf(w);
          if (i < 0) return;
          waiters.splice(i, 1);
          reject(new BrowserBusyError('no browser free before the check’s timeout'));
        },
        Math.max(0, deadlineAt - Date.now()),
      );
      w.go = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  };

  const release = () => {
    const next = waiters.shift();
    if (next) next.go();
    else busy--;
  };

  const closeContext = async (context: BrowserContext) => {
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((r) => {
      timer = setTimeout(() => r('slow'), CLOSE_MS);
    });
    const r = await Promise.race([context.close().catch(() => 'closed' as const), slow]);
    clearTimeout(timer);
    if (r === 'slow') {
      // A context that will not close (a renderer stuck in a loop) is not left to the next run.
      opts.log?.warn('a browser context did not close; restarting Chromium');
      const b = browser;
      browser = null;
      await b?.close().catch(() => {});
    }
  };

  return {
    async withPage(deadlineAt, fn) {
      if (closed) throw new Error('the browser pool is closed');
      await acquire(deadlineAt);
      let context: BrowserContext | null = null;
      try {
        if (closed) throw new Error('the browser pool is closed');
        const b = await getBrowser();
        context = await b.newContext({
          viewport: VIEWPORT,
          acceptDownloads: false,
          serviceWorkers: 'block',
        });
        const page = await context.newPage();
        return await fn(page, context);
      } finally {
        if (context) await closeContext(context);
        release();
      }
    },
    get busy() {
      return busy;
    },
    get waiting() {
      return waiters.length;
    },
    async close() {
      closed = true;
      for (const w of waiters.splice(0)) w.go();
      const b = browser ?? (launching ? await launching.catch(() => null) : null);
      browser = null;
      await b?.close().catch(() => {});
    },
  };
};
