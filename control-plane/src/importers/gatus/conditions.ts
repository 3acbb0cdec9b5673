import { parseJsonPath } from '@lookout/shared';
import { durationSeconds } from './values.js';

/**
 * Gatus's endpoint conditions (README, "Conditions": `[PLACEHOLDER] OP VALUE`, with `len()`,
 * `has()`, `pat()` and `any()`) as what a Lookout monitor checks: its expected status code, its
 * assertions, its certificate and DNS settings. Each condition is mapped, implied (Lookout fails a
 * check that cannot connect: `[CONNECTED] == true`), mapped in part (the returned `partly`), or not
 * mapped (the returned `reason`).
 */

export interface Assertion {
  source: string;
  property?: string;
  comparison: string;
  target?: string;
}

/** What the conditions make of a monitor of one Lookout type. */
export interface ConditionTarget {
  /** Lookout's monitor type: which sources and fields exist. */
  type: string;
  /** Fields of the monitor the conditions set (expected_status_code, ssl_cert_*, dns_*). */
  fields: Record<string, unknown>;
  assertions: Assertion[];
  /** `[DOMAIN_EXPIRATION] > D`: a domain monitor alerting this many days ahead. */
  domainExpiryDays?: number;
  /** Whether a `[STATUS]` condition was met (an http monitor must expect one status). */
  sawStatus: boolean;
  /** An https URL: its certificate can be watched. */
  https: boolean;
}

export type ConditionResult = { mapped: true; partly?: string } | { mapped: false; reason: string };

const OPERATORS = ['==', '!=', '<=', '>=', '>', '<'] as const;
type Op = (typeof OPERATORS)[number];

/** `[BODY].a == 1` → left, op, right (Gatus splits on the first operator it finds, in this order). */
export const splitCondition = (condition: string): { left: string; op: Op; right: string } | null => {
  for (const op of OPERATORS) {
    const at = condition.indexOf(op);
    if (at > 0)
      return { left: condition.slice(0, at).trim(), op, right: condition.slice(at + op.length).trim() };
  }
  return null;
};

/** Gatus's `pat()` (Go's filepath.Match: `*`, `?`, `[…]`) as an anchored RE2 pattern. */
export const globToRegex = (glob: string): string => {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (ch === '\\' && i + 1 < glob.length) out += escapeRegex(glob[++i]!);
    else out += escapeRegex(ch);
  }
  return `^${out}$`;
};

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const fn = (name: string, text: string) => {
  const m = new RegExp(`^${name}\\((.*)\\)$`).exec(text);
  return m ? m[1]!.trim() : null;
};
const anyValues = (text: string) => {
  const inner = fn('any', text);
  return inner === null ? null : inner.split(',').map((v) => v.trim());
};

const NUMBER = /^-?\d+(\.\d+)?$/;
const INTEGER = /^-?\d+$/;

/** `<`, `<=`, `>`, `>=` against a number as Lookout's strict less_than / greater_than. */
const strict = (op: Op, n: string): { comparison: string; target: string } | null => {
  if (!NUMBER.test(n)) return null;
  if (op === '<') return { comparison: 'less_than', target: n };
  if (op === '>') return { comparison: 'greater_than', target: n };
  if (!INTEGER.test(n)) return null;
  if (op === '<=') return { comparison: 'less_than', target: String(Number(n) + 1) };
  if (op === '>=') return { comparison: 'greater_than', target: String(Number(n) - 1) };
  return null;
};

/** A value's comparison: `== v`, `!= v`, `== pat(p)`, `== any(a, b)`, numbers with `<`/`>`. */
const compareValue = (op: Op, right: string): { comparison: string; target?: string } | string => {
  const pattern = fn('pat', right);
  const values = anyValues(right);
  if (op === '==' && pattern !== null) return { comparison: 'matches', target: globToRegex(pattern) };
  if (op === '==' && values)
    return { comparison: 'matches', target: `^(?:${values.map(escapeRegex).join('|')})$` };
  if (pattern !== null || values) return 'Lookout has no negated pattern or list comparison';
  if (right.startsWith('['))
    return 'Lookout compares a value with a fixed target, not with another placeholder';
  if (op === '==') return { comparison: 'equals', target: right };
  if (op === '!=') return { comparison: 'not_equals', target: right };
  return strict(op, right) ?? `Lookout compares with ${op} only numbers`;
};

/** The sources each Lookout type's assertions read (domain/checks/registry.ts). */
const SOURCES: Record<string, string[]> = {
  http: ['status_code', 'text_body', 'json_body', 'headers', 'response_time'],
  api: ['status_code', 'text_body', 'json_body', 'headers', 'response_time'],
  websocket: ['text_body', 'json_body', 'response_time', 'status_code'],
  grpc: ['response_time', 'text_body', 'status_code'],
  ping: ['packet_loss', 'response_time'],
  smtp: ['response_time', 'text_body'],
};
const reads = (t: ConditionTarget, source: string) => (SOURCES[t.type] ?? []).includes(source);

const no = (reason: string): ConditionResult => ({ mapped: false, reason });
const yes = (partly?: string): ConditionResult => (partly ? { mapped: true, partly } : { mapped: true });

export const mapCondition = (condition: string, t: ConditionTarget): ConditionResult => {
  const parts = splitCondition(condition);
  if (!parts) return no('not a condition Gatus documents (PLACEHOLDER OPERATOR VALUE)');
  const { left, op, right } = parts;
  if (left === '[CONNECTED]')
    return op === '==' && right === 'true'
      ? yes()
      : no('Lookout fails a check that cannot connect; it has no condition that expects a failure');
  if (left === '[STATUS]') {
    if (t.type !== 'http' && t.type !== 'api') return no(`Lookout's ${t.type} checks have no status code`);
    t.sawStatus = true;
    if (op === '==' && INTEGER.test(right) && Number(right) >= 100 && Number(right) <= 599) {
      t.fields.expected_status_code = Number(right);
      return yes();
    }
    return no('Lookout expects one exact status code (expected_status_code, written as 200)');
  }
  if (left === '[RESPONSE_TIME]') {
    const c = strict(op, right);
    if (!c) return no('Lookout compares the response time with < or > a number of ms');
    if (reads(t, 'response_time')) {
      t.assertions.push({ source: 'response_time', ...c });
      return yes();
    }
    if (c.comparison === 'less_than' && t.type !== 'domain') {
      t.fields.response_time_threshold_ms = Math.max(1, Math.round(Number(c.target)));
      return yes(
        `as response_time_threshold_ms: Lookout's ${t.type} checks alert when slower rather than failing`,
      );
    }
    return no(`Lookout's ${t.type} checks read no response time in a condition`);
  }
  if (left === '[CERTIFICATE_EXPIRATION]') {
    const seconds = durationSeconds(right);
    const httpsOrTls =
      (t.type === 'http' && t.https) || (t.type === 'smtp' && t.fields.smtp_security !== 'none');
    if ((op !== '>' && op !== '>=') || seconds === null)
      return no('Lookout watches a certificate for expiring within some days (> a duration)');
    if (!httpsOrTls)
      return no(`Lookout watches certificates of https and smtp checks, not of ${t.type} ones`);
    t.fields.ssl_cert_monitoring = true;
    t.fields.ssl_cert_expiry_alert_days = Math.min(365, Math.max(1, Math.ceil(seconds / 86_400)));
    return seconds % 86_400 ? yes('in whole days (Lookout counts certificate expiry in days)') : yes();
  }
  if (left === '[DOMAIN_EXPIRATION]') {
    const seconds = durationSeconds(right);
    if ((op !== '>' && op !== '>=') || seconds === null)
      return no('Lookout watches a domain for expiring within some days (> a duration)');
    t.domainExpiryDays = Math.min(365, Math.max(1, Math.ceil(seconds / 86_400)));
    return yes('as a domain monitor of its own (Lookout checks registrations daily)');
  }
  if (left === '[DNS_RCODE]')
    return op === '==' && right === 'NOERROR'
      ? yes()
      : no('Lookout’s DNS check expects an answer (NOERROR); it has no condition on other response codes');
  if (left === '[IP]') return no('Lookout does not check the address a host name resolves to');
  if (left.startsWith('len(')) return no('Lookout has no condition on a length');
  const has = fn('has', left);
  if (has !== null) {
    const path = jsonPath(has);
    if (!path || !reads(t, 'json_body')) return no(`Lookout's ${t.type} checks read no JSON body`);
    if (op !== '==' || (right !== 'true' && right !== 'false'))
      return no('has() is compared with true or false');
    t.assertions.push({
      source: 'json_body',
      property: path,
      comparison: right === 'true' ? 'not_empty' : 'is_empty',
    });
    return yes(
      right === 'true'
        ? 'as not_empty: an empty value ("", [], {}) fails in Lookout where Gatus passes'
        : 'as is_empty: an empty value passes in Lookout where Gatus fails',
    );
  }
  if (left === '[BODY]') {
    if (t.type === 'dns') {
      const have = (t.fields.dns_expected_values as string[] | undefined)?.length ?? 0;
      if (op === '==' && !right.includes('(') && right.length <= 1024 && have < 20) {
        t.fields.dns_expected_values = [...((t.fields.dns_expected_values as string[]) ?? []), right];
        return yes();
      }
      return no('Lookout’s DNS check expects given values among the answers (== a value)');
    }
    if (!reads(t, 'text_body')) return no(`Lookout's ${t.type} checks read no body`);
    const c = compareValue(op, right);
    if (typeof c === 'string') return no(c);
    t.assertions.push({ source: 'text_body', ...c });
    return yes();
  }
  if (left.startsWith('[BODY].') || left.startsWith('[BODY][')) {
    // gRPC's body is its serving status: Lookout's gRPC check expects SERVING.
    if (t.type === 'grpc' && left === '[BODY].status')
      return op === '==' && right === 'SERVING' ? yes() : no('Lookout’s gRPC check expects SERVING');
    const path = jsonPath(left);
    if (!path) return no('a JSONPath Lookout does not read');
    if (!reads(t, 'json_body')) return no(`Lookout's ${t.type} checks read no JSON body`);
    const c = compareValue(op, right);
    if (typeof c === 'string') return no(c);
    t.assertions.push({ source: 'json_body', property: path, ...c });
    return yes();
  }
  return no(`Lookout has no condition on ${left}`);
};

/** `[BODY].data[0].id` → `$.data[0].id` (null if Lookout's JSONPath reader refuses it). */
const jsonPath = (left: string): string | null => {
  if (!left.startsWith('[BODY]')) return null;
  const rest = left.slice('[BODY]'.length);
  const path = `$${rest}`;
  return parseJsonPath(path).error ? null : path;
};
