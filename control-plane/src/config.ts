import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { signInConfigKeys } from './config-sign-in.js';
import { defaultPlans, type Plan } from './domain/tenancy/plans.js';

/**
 * The control plane's one config loader. Every key has an env name (LOOKOUT_*), a default and a doc;
 * the same keys may come from a JSON file (LOOKOUT_CONFIG_FILE; key = env name without the prefix, lower
 * case, e.g. {"http_port": 8080}); the environment wins. Nothing else reads process.env.
 */

const port = z.coerce.number().int().min(0).max(65535);
/** A retention, in days (at most ten years). */
const days = z.coerce.number().int().min(1).max(3650);
const bool = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);
const regionName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'region names are lower-case letters, digits and dashes');
/** A comma-separated list of region names (or an array, from the config file). */
const regionList = (min = 0) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z.array(regionName).min(min),
  );
/** DNS servers as node:dns takes them: `1.1.1.1`, `127.0.0.1:5353`, `::1`, `[::1]:5353` (comma-separated). */
const dnsServerList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(
    z
      .string()
      .refine(
        (s) => isIP(s) !== 0 || /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):\d{1,5}$/.test(s),
        'must be IP addresses, each with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:5353)',
      ),
  ),
);
const planSchema = z.strictObject({
  max_monitors: z.number().int().min(0),
  min_interval_seconds: z.number().int().min(1).max(86400),
  max_heartbeats: z.number().int().min(0).optional(),
  max_status_pages: z.number().int().min(0).optional(),
});

export const configKeys = {
  http_host: {
    schema: z.string().min(1),
    default: '127.0.0.1',
    doc: 'Address the HTTP API listens on (0.0.0.0 in containers).',
  },
  http_port: { schema: port, default: 8080, doc: 'Port of the HTTP API (0 picks a free port).' },
  rpc_port: { schema: port, default: 8081, doc: 'Port of the agents’ gRPC/Connect listener (HTTP/2).' },
  http_headers_timeout_ms: {
    schema: z.coerce.number().int().min(1000).max(600_000),
    default: 20_000,
    doc: 'HTTP API: a request’s headers must arrive within this long, or the connection gets 408 and is closed (a connection that sends nothing too). At most the request timeout.',
  },
  http_request_timeout_ms: {
    schema: z.coerce.number().int().min(1000).max(600_000),
    default: 30_000,
    doc: 'HTTP API: a whole request (headers and body) must arrive within this long, or the connection gets 408 and is closed.',
  },
  http_keep_alive_timeout_ms: {
    schema: z.coerce.number().int().min(1000).max(600_000),
    default: 65_000,
    doc: 'HTTP API: a kept-alive connection idle this long between requests is closed. Keep it above the idle timeout of a load balancer in front (often 60 s), so the balancer closes first.',
  },
  http_max_connections: {
    schema: z.coerce.number().int().min(1).max(1_000_000),
    default: 10_000,
    doc: 'HTTP API: most open connections per process; beyond, new connections are closed at once.',
  },
  rpc_idle_timeout_ms: {
    schema: z.coerce.number().int().min(20_000).max(3_600_000),
    default: 60_000,
    doc: 'Agent RPC: an HTTP/2 connection, or a stream on it, with no traffic for this long is closed. Above the 15 s keep-alive that streams and agents send.',
  },
  rpc_max_connections: {
    schema: z.coerce.number().int().min(1).max(1_000_000),
    default: 1_000,
    doc: 'Agent RPC: most open connections per process (each agent holds one); beyond, new connections are closed at once.',
  },
  demo_workspace: {
    schema: bool,
    default: true,
    doc: 'Create the `demo` workspace on first start and print its admin password and a key (for `npm start`); set false in production and create workspaces with the CLI.',
  },
  local_agents: {
    schema: regionList(),
    default: [] as string[],
    doc: 'Regions to run a local agent process for, next to the control plane (`npm start` sets eu-west,us-east).',
  },
  agent_live_seconds: {
    schema: z.coerce.number().int().min(5).max(3600),
    default: 45,
    doc: 'An agent not heard from for this long is gone: its monitors move to the others of its region.',
  },
  assignment_poll_ms: {
    schema: z.coerce.number().int().min(50).max(60000),
    default: 500,
    doc: 'How often a replica reads the monitor feed (monitor changes, confirmation runs) and each agent stream checks its region’s live agents.',
  },
  stream_max_seconds: {
    schema: z.coerce.number().int().min(10).max(86400),
    default: 1800,
    doc: 'Assignment streams are closed after about this long (±10% jitter) so agents spread over replicas.',
  },
  result_retention_days: { schema: days, default: 30, doc: 'Check results older than this are pruned.' },
  audit_retention_days: { schema: days, default: 365, doc: 'Audit log entries older than this are pruned.' },
  audit_strict: { schema: bool, default: false, doc: 'For tests: fail a write no transaction audited.' },
  service_domain: {
    schema: z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name such as lookout.example.com'),
    default: 'localhost',
    doc: 'Workspaces live at <subdomain>.<service domain>.',
  },
  public_url_scheme: {
    schema: z.enum(['http', 'https']),
    default: 'http',
    doc: 'Scheme of the URLs the service prints (API URL, ping URLs, integration endpoints, OpenAPI servers); never taken from a request.',
  },
  public_port: {
    schema: port.optional(),
    default: undefined,
    doc: 'Port in the URLs the service prints; defaults to the HTTP port (omitted when it is the scheme’s own, 80 or 443).',
  },
  trust_proxy: { schema: bool, default: false, doc: 'Honour X-Forwarded-Host/-For from a reverse proxy.' },
  validate_responses: {
    schema: bool,
    default: false,
    doc: 'Check every API success response against the schema its route declares (the one in the OpenAPI document) and answer 500 naming the mismatch; for development and tests (the test suite turns it on), off in production.',
  },
  data_dir: { schema: z.string().min(1), default: './data', doc: 'Directory of the embedded SQLite store.' },
  mongodb_uri: {
    schema: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .optional(),
    default: undefined,
    doc: 'When set, the MongoDB store is used instead of SQLite.',
  },
  mongodb_db: { schema: z.string().min(1), default: 'lookout', doc: 'MongoDB database name.' },
  log_level: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'pino log level.',
  },
  regions: {
    schema: regionList(1),
    default: ['eu-west', 'us-east'],
    doc: 'Comma-separated region names that monitors may run from.',
  },
  plans: {
    schema: z.preprocess(
      (v) => (typeof v === 'string' ? JSON.parse(v) : v),
      z.record(z.string().regex(/^[a-z0-9-]+$/), planSchema),
    ),
    default: defaultPlans,
    doc: 'JSON object of plans: {"name": {"max_monitors": N, "min_interval_seconds": S, "max_heartbeats": H, "max_status_pages": P}} (max_heartbeats and max_status_pages optional: no cap).',
  },
  max_body_bytes: {
    schema: z.coerce.number().int().min(1024),
    default: 65536,
    doc: 'Largest accepted request body.',
  },
  ping_batch_max: {
    schema: z.coerce.number().int().min(1).max(10000),
    default: 512,
    doc: 'Most pings written in one group commit.',
  },
  ping_queue_max: {
    schema: z.coerce.number().int().min(1),
    default: 20000,
    doc: 'Pings waiting for a commit before new ones get 503.',
  },
  shutdown_grace_ms: {
    schema: z.coerce.number().int().min(0),
    default: 10000,
    doc: 'How long SIGTERM waits for in-flight work.',
  },
  heartbeat_check_ms: {
    schema: z.coerce.number().int().min(10).max(1000),
    default: 500,
    doc: 'How often each replica looks for heartbeats whose deadline has come (at most 1000, so a missed deadline alerts within a second).',
  },
  batch_max_body_bytes: {
    schema: z.coerce.number().int().min(1024),
    default: 8_388_608,
    doc: 'Largest accepted body of a batch request (`POST /monitors/batch`, up to 1,000 monitors).',
  },
  integration_max_body_bytes: {
    schema: z.coerce.number().int().min(1024),
    default: 1_048_576,
    doc: 'Largest accepted body on the inbound integration endpoints (Alertmanager and Grafana send whole alert groups).',
  },
  smtp_host: {
    schema: z.string().min(1).optional(),
    default: undefined,
    doc: 'The deployment’s SMTP server: system mail, and the alert email of workspaces without their own (Settings → Mail). Unset: none, and email to a workspace without its own fails at once, saying so (a warning at start says it too). `localhost` for a relay on this host.',
  },
  smtp_port: {
    schema: port,
    default: 25,
    doc: 'SMTP server port (465 with smtp_secure, 587 or 25 otherwise).',
  },
  smtp_secure: {
    schema: bool,
    default: false,
    doc: 'Connect with TLS from the start (port 465); otherwise STARTTLS is used when offered.',
  },
  smtp_user: {
    schema: z.string().min(1).optional(),
    default: undefined,
    doc: 'SMTP user name, if the server wants one.',
  },
  smtp_password: { schema: z.string().optional(), default: undefined, doc: 'SMTP password.' },
  encryption_key: {
    schema: z
      .string()
      .refine(
        (v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32,
        'must be 32 random bytes in base64 (openssl rand -base64 32)',
      )
      .optional(),
    default: undefined,
    doc: 'Key that encrypts workspace SMTP passwords in the store (AES-256-GCM): 32 random bytes in base64, e.g. `openssl rand -base64 32`; the same on every replica. Unset: they are stored as entered, like webhook signing secrets.',
  },
  notify_allow_private: {
    schema: bool,
    default: false,
    doc: 'Let notifications of every kind (channels, users’ contact methods, workspace SMTP servers) and SAML IdP metadata URLs (which may then also be plain http) reach private, loopback and link-local addresses. Off (the default), such a destination is refused when it is connected to (after DNS; redirects are never followed): any user can name a destination, so by default none may reach an internal service. Checks have their own setting (LOOKOUT_AGENT_BLOCK_PRIVATE_TARGETS, agents), which allows private targets by default. The operator’s own addresses (LOOKOUT_SMTP_HOST, LOOKOUT_TWILIO_API_URL, LOOKOUT_TELEGRAM_API_URL, LOOKOUT_PUSHOVER_API_URL) are never refused.',
  },
  auth_failures_per_minute: {
    schema: z.coerce.number().min(0).max(100_000),
    default: 30,
    doc: 'Failed key attempts (API keys and integration service keys) allowed per client address per minute (burst of the same size); beyond, failed attempts get 429 with Retry-After, while a valid key always works. 0: no limit.',
  },
  ...signInConfigKeys,
  oauth_registrations_per_hour: {
    schema: z.coerce.number().min(0).max(100_000),
    default: 20,
    doc: 'OAuth client registrations (POST /oauth/register, the hosted MCP connector) allowed per client address per hour (burst of the same size); beyond, 429 with Retry-After. 0: no limit.',
  },
  oauth_clients_per_workspace: {
    schema: z.coerce.number().int().min(0).max(1_000_000),
    default: 100,
    doc: 'Registered OAuth clients (hosted MCP connector) a workspace may have at once; beyond, POST /oauth/register gets 429 with Retry-After. A client that gets no token within a day of registering is deleted, which frees its place. 0: no limit.',
  },
  oauth_clients_total: {
    schema: z.coerce.number().int().min(0).max(100_000_000),
    default: 10_000,
    doc: 'Registered OAuth clients the whole service may have at once (every workspace together); beyond, POST /oauth/register gets 429 with Retry-After. 0: no limit.',
  },
  session_idle_minutes: {
    schema: z.coerce.number().int().min(1).max(525_600),
    default: 720,
    doc: 'A web app session unused for this long ends (any request with it counts as use).',
  },
  session_max_hours: {
    schema: z.coerce.number().int().min(1).max(8_760),
    default: 168,
    doc: 'A web app session ends this long after sign-in, however active (at least session_idle_minutes).',
  },
  pings_per_heartbeat_per_second: {
    schema: z.coerce.number().min(0).max(100_000),
    default: 10,
    doc: 'Pings accepted per heartbeat per second (burst of ten times that); beyond, 429 with Retry-After. 0: no limit.',
  },
  metrics_token: {
    schema: z.string().min(16).optional(),
    default: undefined,
    doc: 'When set, `GET /metrics` needs `Authorization: Bearer <token>` (for a port reachable from outside).',
  },
  smtp_from: {
    schema: z.string().min(3),
    default: 'Lookout <lookout@localhost>',
    doc: 'From address of notification emails.',
  },
  escalation_poll_ms: {
    schema: z.coerce.number().int().min(10).max(600000),
    default: 5000,
    doc: 'How often each replica looks for due escalation steps.',
  },
  status_auto_draft_ms: {
    schema: z.coerce.number().int().min(10).max(600000),
    default: 15000,
    doc: 'How often each replica opens draft incidents on status pages that ask for them (a linked monitor went down).',
  },
  custom_domain_dns_servers: {
    schema: dnsServerList,
    default: [] as string[],
    doc: 'DNS servers that status pages’ custom domains are verified against (their TXT or CNAME record), comma-separated IP[:port]; empty: the system’s resolvers.',
  },
  region_check_ms: {
    schema: z.coerce.number().int().min(10).max(600_000),
    default: 15_000,
    doc: 'How often each replica looks for regions whose monitors no agent checks: no healthy agent, or none that can run a type of check.',
  },
  custom_domain_check_ms: {
    schema: z.coerce.number().int().min(10).max(3_600_000),
    default: 60_000,
    doc: 'How often each replica looks for custom domains due a check (new ones, and every verified one hourly).',
  },
  status_mail_poll_ms: {
    schema: z.coerce.number().int().min(10).max(600000),
    default: 2000,
    doc: 'How often each replica sends the mail status page subscribers are due (confirmations, incident updates).',
  },
  report_mail_poll_ms: {
    schema: z.coerce.number().int().min(10).max(3600000),
    default: 60000,
    doc: 'How often each replica looks for monthly SLA reports due by mail (from 06:00 UTC on the 1st).',
  },
  escalation_lease_seconds: {
    schema: z.coerce.number().int().min(5).max(3600),
    default: 120,
    doc: 'A claimed escalation step not finished within this long (its replica died) is run again.',
  },
  notify_group_wait_seconds: {
    schema: z.coerce.number().int().min(0).max(300),
    default: 5,
    doc: 'Grouped notifications (domain/escalation/group-window.ts): how long the first alert of a burst on one policy waits for others before its channels get one message listing them all.',
  },
  notify_group_interval_seconds: {
    schema: z.coerce.number().int().min(0).max(3600),
    default: 60,
    doc: 'Grouped notifications: while a burst goes on, the alerts that arrive after a group message are sent together this long after it, in the next summary. 0 turns grouping off (one message per alert).',
  },
  notify_max_attempts: {
    schema: z.coerce.number().int().min(1).max(10),
    default: 4,
    doc: 'Attempts per notification (the first included) on network errors, 429 and 5xx.',
  },
  notify_retry_base_ms: {
    schema: z.coerce.number().int().min(0).max(60000),
    default: 1000,
    doc: 'Wait before the first retry of a notification; doubled for each further one.',
  },
  notify_timeout_ms: {
    schema: z.coerce.number().int().min(100).max(60000),
    default: 10000,
    doc: 'Timeout of one notification attempt (HTTP request or SMTP conversation step).',
  },
  telegram_bot_token: {
    schema: z
      .string()
      .regex(/^\d+:[\w-]+$/, 'must be a bot token from @BotFather (<digits>:<letters>)')
      .optional(),
    default: undefined,
    doc: 'The deployment’s Telegram bot (Bot API token from @BotFather): users add their chat with it as a contact method (Notification settings). Unset: Telegram contact methods cannot be added.',
  },
  telegram_api_url: {
    schema: z.url(),
    default: 'https://api.telegram.org',
    doc: 'Telegram Bot API address for users’ contact methods (a proxy, or a local server).',
  },
  twilio_account_sid: {
    schema: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio Account SID (AC + 32 hex digits)')
      .optional(),
    default: undefined,
    doc: 'The deployment’s Twilio account for users’ SMS contact methods, with LOOKOUT_TWILIO_AUTH_TOKEN and LOOKOUT_TWILIO_FROM. Unset: SMS contact methods cannot be added.',
  },
  twilio_auth_token: { schema: z.string().min(1).optional(), default: undefined, doc: 'Twilio auth token.' },
  twilio_from: {
    schema: z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
        'must be a phone number (E.164) or a Messaging Service SID (MG…)',
      )
      .optional(),
    default: undefined,
    doc: 'The Twilio number (E.164) or Messaging Service SID that users’ SMS come from.',
  },
  twilio_api_url: {
    schema: z.url(),
    default: 'https://api.twilio.com',
    doc: 'Twilio API address for users’ SMS contact methods.',
  },
  pushover_app_token: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9]{30}$/, 'must be a 30-character Pushover application token')
      .optional(),
    default: undefined,
    doc: 'The deployment’s Pushover application: users add their Pushover user key as a contact method. Unset: Pushover contact methods cannot be added.',
  },
  pushover_api_url: {
    schema: z.url(),
    default: 'https://api.pushover.net',
    doc: 'Pushover API address for users’ contact methods.',
  },
} satisfies Record<string, { schema: z.ZodType; default: unknown; doc: string }>;

type Keys = typeof configKeys;
export type Config = { [K in keyof Keys]: z.output<Keys[K]['schema']> } & { plans: Record<string, Plan> };

export const envName = (key: string) => `LOOKOUT_${key.toUpperCase()}`;

/** Keys whose values are secrets (or may carry one): a bad value is reported without its text. */
const SECRET_KEYS = new Set([
  'encryption_key',
  'smtp_password',
  'metrics_token',
  'mongodb_uri',
  'telegram_bot_token',
  'twilio_auth_token',
  'pushover_app_token',
]);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads env (and the optional file), validates every key, and reports every bad one at once. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config => {
  const problems: string[] = [];
  let file: Record<string, unknown> = {};
  const filePath = env.LOOKOUT_CONFIG_FILE;
  if (filePath) {
    try {
      file = JSON.parse(readFileSync(resolve(filePath), 'utf8')) as Record<string, unknown>;
    } catch (e) {
      problems.push(`LOOKOUT_CONFIG_FILE (${filePath}): ${(e as Error).message}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(configKeys)) {
    if (key in overrides) {
      out[key] = (overrides as Record<string, unknown>)[key];
      continue;
    }
    const name = envName(key);
    const raw = env[name] !== undefined && env[name] !== '' ? env[name] : file[key];
    if (raw === undefined) {
      out[key] = spec.default;
      continue;
    }
    let parsed: { success: true; data: unknown } | { success: false; error: z.ZodError };
    try {
      parsed = spec.schema.safeParse(raw);
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message}`);
      continue;
    }
    if (parsed.success) out[key] = parsed.data;
    else
      problems.push(
        `${name}=${SECRET_KEYS.has(key) ? '(hidden)' : JSON.stringify(raw)}: ${parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message).join('; ')}`,
      );
  }
  if (out.smtp_user !== undefined && out.smtp_host === undefined)
    problems.push(
      `${envName('smtp_user')} is set but ${envName('smtp_host')} is not: name the SMTP server too`,
    );
  if (problems.length === 0 && (out.session_idle_minutes as number) > (out.session_max_hours as number) * 60)
    problems.push(
      `${envName('session_idle_minutes')}=${out.session_idle_minutes}: must not be longer than ${envName('session_max_hours')} (${out.session_max_hours} h)`,
    );
  const headers = out.http_headers_timeout_ms as number | undefined;
  const request = out.http_request_timeout_ms as number | undefined;
  if (headers !== undefined && request !== undefined && headers > request)
    problems.push(
      `${envName('http_headers_timeout_ms')}=${headers}: must not exceed ${envName('http_request_timeout_ms')} (${request})`,
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Config;
};
