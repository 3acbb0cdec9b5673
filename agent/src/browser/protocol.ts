import type { StepReport } from '../probe-port.js';

/**
 * The browser sandbox's two halves and the messages between them (docs/scripted-checks.md):
 *
 * - the **child** (sandbox-child.ts, a separate Node process under the permission model, with no
 *   environment, no files but its own code, no child processes, its own user and network namespace
 *   where the host allows): runs the untrusted script in a vm context whose only objects are made
 *   inside that context (`page`, `expect`, `test`, `url`, `secrets`); every page call becomes a
 *   message, and only JSON crosses;
 * - the **host** (the agent: page-host.ts): holds the real Playwright page, in a fresh browser
 *   context per run, and answers each call from an allow-list of Playwright methods.
 *
 * A RegExp argument (getByRole's `name`, toHaveTitle's expected value) crosses as `{ $regex, flags }`.
 * A function argument (evaluate's) crosses as `{ $function: source }`, a locator argument (filter's
 * `has`) as `{ $locator: chain }`.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One link of a locator chain from the page: `page.getByRole('button', { name: 'Pay' })`. */
export interface ChainLink {
  method: string;
  args: Json[];
}

/**
 * One call on the page or on a locator: `chain` empty for the page itself. `method` is a Playwright
 * method (`goto`, `click`, `fill`, `textContent`, …) or an assertion as `expect:toHaveTitle`,
 * `expect:toBeVisible`, … (`not` for `expect(x).not.…`), polled by the host until it holds or its
 * timeout passes, as Playwright's own expect does.
 */
export interface HostCall {
  chain: ChainLink[];
  method: string;
  args: Json[];
  not?: boolean;
}

/** The host's answer; `url` is the page's URL after the call (what `page.url()` returns, synchronously). */
export type HostReply = { ok: true; value: Json; url: string } | { ok: false; error: string; url: string };

/** What the child asks of the agent: the page, one call at a time or several at once. */
export interface PageHost {
  call(c: HostCall): Promise<HostReply>;
}

/** What the agent sends the child once, after it starts. */
export interface RunMessage {
  t: 'run';
  script: string;
  /** The monitor's URL, the script's `url`. */
  url: string;
  /** The workspace secrets the script names, its `secrets`. */
  secrets: Record<string, string>;
}

export type ParentMessage = RunMessage | { t: 'reply'; id: number; reply: HostReply };

export type ChildMessage =
  | { t: 'call'; id: number; call: HostCall }
  | {
      t: 'done';
      ok: boolean;
      /** Why the script failed (null when ok). */
      error: string | null;
      /** The script's line the error was thrown at (or the failed call was made at). */
      line: number | null;
      /** test.step() blocks, and page navigations made outside any, in order. */
      steps: StepReport[];
    };

/** The caps of one sandboxed run. */
export interface SandboxLimits {
  /** Wall time: the child is killed (SIGKILL) past it. */
  wall_ms: number;
  /** CPU seconds (RLIMIT_CPU of the child). */
  cpu_seconds: number;
  /** The child's V8 heap (--max-old-space-size), in MiB. */
  memory_mb: number;
}

/** How a sandboxed run ended; `kind` says which cap, if any, stopped it. */
export interface SandboxOutcome {
  ok: boolean;
  kind: 'ok' | 'script_error' | 'timeout' | 'cpu' | 'memory' | 'crashed';
  error: string | null;
  line: number | null;
  steps: StepReport[];
}

/** What keeps the child from the agent's secrets and network, as found on this host (logged at start). */
export interface SandboxIsolation {
  /** Node's permission model flag used: --permission (Node ≥ 22.13) or --experimental-permission. */
  permission_flag: string;
  /** The uid/gid the child runs as when the agent runs as root (nobody); null: the agent's own. */
  user: { uid: number; gid: number } | null;
  /** True when the child runs in a network namespace of its own (no interfaces: no sockets at all). */
  network_namespace: boolean;
}

/**
 * The Playwright surface a script has, one list each side reads (the child builds its objects from
 * them, the host refuses anything else). Chain methods return a locator at once (no message); every
 * other method is one call and returns a promise. `page.url()` answers from the last reply's `url`;
 * `page.keyboard.press(…)` is the page method `keyboard.press`. Assertions are `expect(page|locator)`
 * matchers (with `.not`); `expect(value)` on a plain value is checked in the child.
 */
export const CHAIN_METHODS = [
  'locator',
  'getByRole',
  'getByText',
  'getByLabel',
  'getByPlaceholder',
  'getByAltText',
  'getByTitle',
  'getByTestId',
  'first',
  'last',
  'nth',
  'filter',
] as const;

/** Calls of both a page (taking a selector first) and a locator. */
const ELEMENT_METHODS = [
  'click',
  'dblclick',
  'fill',
  'press',
  'check',
  'uncheck',
  'selectOption',
  'hover',
  'focus',
  'textContent',
  'innerText',
  'inputValue',
  'isVisible',
  'isHidden',
  'isEnabled',
  'isDisabled',
  'isChecked',
  'getAttribute',
] as const;

export const PAGE_METHODS = [
  ...ELEMENT_METHODS,
  'goto',
  'reload',
  'goBack',
  'goForward',
  'waitForURL',
  'waitForLoadState',
  'waitForTimeout',
  'waitForSelector',
  'title',
  'content',
  'evaluate',
  'setViewportSize',
  'keyboard.press',
  'keyboard.type',
] as const;

export const LOCATOR_METHODS = [
  ...ELEMENT_METHODS,
  'clear',
  'pressSequentially',
  'setChecked',
  'blur',
  'count',
  'waitFor',
  'allTextContents',
  'allInnerTexts',
  'scrollIntoViewIfNeeded',
] as const;

export const EXPECT_MATCHERS = [
  'toHaveTitle',
  'toHaveURL',
  'toBeVisible',
  'toBeHidden',
  'toBeEnabled',
  'toBeDisabled',
  'toBeChecked',
  'toHaveText',
  'toContainText',
  'toHaveValue',
  'toHaveCount',
  'toHaveAttribute',
] as const;
