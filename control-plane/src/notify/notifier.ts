import type { z } from 'zod';
import type { ChannelKind } from '../domain/notifications/channel-kinds.js';
import type { OutgoingMessage } from '../domain/notifications/messages.js';
import type { AttemptResult } from './attempt.js';
import type { HttpAnswer, HttpCall } from './http-client.js';
import type { MailRouter } from './mail-route.js';

/** What one attempt of one notification may use. */
export interface NotifyContext {
  /** The SSRF-guarded HTTP client, answers classified by `classify` (default: the kind's). */
  http(call: HttpCall, classify?: (answer: HttpAnswer, now: Date) => AttemptResult): Promise<AttemptResult>;
  /** Which SMTP server an email goes through. */
  mail: MailRouter;
  workspace_id: string | undefined;
  /** The idempotency key, the same on every attempt of one notification (null for some tests). */
  delivery_id: string | null;
  /** Webhooks: the channel's signing secret. */
  signing_secret: string | null;
  now: Date;
  timeoutMs: number;
  /** Kept across the attempts of one notification: which of several requests already succeeded. */
  memo: Record<string, unknown>;
}

/**
 * A notification kind: one module in notify/kinds/, registered in notify/kinds/index.ts.
 * - `config`: the zod schema of the channel's config (validates the API, documents OpenAPI, builds the
 *   web form through its JSON Schema);
 * - `render`: what the service receives for a message (pure; the tests assert it);
 * - `send`: one attempt, through `ctx.http` (the SSRF-guarded client) or `ctx.mail`;
 * - `classify`: the service's answer as ok / retry (after Retry-After) / give up.
 */
export interface Notifier<S extends z.ZodObject = z.ZodObject, R = unknown, A = HttpAnswer>
  extends ChannelKind {
  config: S;
  /** The service's own documentation of the wire format. */
  docs: readonly string[];
  /** How a channel appears in the delivery log: never a secret. */
  describe(config: z.output<S>): string;
  render(config: z.output<S>, message: OutgoingMessage): R;
  send(config: z.output<S>, rendered: R, ctx: NotifyContext): Promise<AttemptResult>;
  classify(answer: A, now: Date): AttemptResult;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds notifiers of every config and rendering
export type AnyNotifier = Notifier<z.ZodObject, any, any>;

export const defineNotifier = <S extends z.ZodObject, R, A = HttpAnswer>(n: Notifier<S, R, A>) => n;

/**
 * Sends the calls in order, each at most once successfully per notification: a retry starts at the
 * first call not yet answered with success (two recipients, the second failed: only it again).
 */
export const sendCalls = async (
  calls: readonly HttpCall[],
  ctx: NotifyContext,
  classify?: (answer: HttpAnswer, now: Date) => AttemptResult,
): Promise<AttemptResult> => {
  let last: AttemptResult = { ok: true, permanent: false, status_code: null, error: null };
  for (const [i, call] of calls.entries()) {
    if (ctx.memo[`sent:${i}`]) continue;
    last = await ctx.http(call, classify);
    if (!last.ok) return last;
    ctx.memo[`sent:${i}`] = true;
  }
  return last;
};

/** At most `max` characters (code points), cut with "…" when longer. */
export const truncate = (s: string, max: number): string => {
  const cps = Array.from(s);
  return cps.length <= max ? s : `${cps.slice(0, max - 1).join('')}…`;
};

/** At most `max` UTF-8 bytes, cut on a character boundary with "…" when longer. */
export const truncateBytes = (s: string, max: number): string => {
  if (Buffer.byteLength(s) <= max) return s;
  let out = '';
  let bytes = 3; // the ellipsis
  for (const c of s) {
    const b = Buffer.byteLength(c);
    if (bytes + b > max) break;
    out += c;
    bytes += b;
  }
  return `${out}…`;
};

/** A URL's origin and path for the delivery log (no query: tokens live there). */
export const urlLabel = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'invalid URL';
  }
};

/** A URL's origin only, for URLs whose path is the secret (incoming webhooks). */
export const originLabel = (url: string): string => {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return 'invalid URL';
  }
};

export const json = (body: unknown) => JSON.stringify(body);
export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** What a message says first: the subject, without the "[Lookout …]" prefix chat titles do not need. */
export const headline = (m: Pick<OutgoingMessage, 'subject'>) =>
  m.subject.replace(/^\[Lookout [^\]]*\]\s*/, '');

/** The status a kind shows for the message: the alert's severity when raised, else the event. */
export const tone = (
  m: Pick<OutgoingMessage, 'event' | 'alert'>,
): 'critical' | 'warning' | 'info' | 'good' => {
  if (m.event === 'resolved') return 'good';
  if (m.event === 'raised') return m.alert?.severity ?? 'critical';
  return 'info';
};

/** Reads a JSON body, or undefined. */
export const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
