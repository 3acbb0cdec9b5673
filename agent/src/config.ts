import { accessSync, constants, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { MONITOR_TYPES } from '@lookout/shared';
import { z } from 'zod';

/** A program that exists and this process may run. */
export const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Debian's chromium, when installed: browser checks run only with it (never a downloaded browser). */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The agent's one config loader: LOOKOUT_AGENT_* variables, validated at boot, every problem at once. */
export const agentConfigKeys = {
  control_plane_url: {
    schema: z.url({ protocol: /^https?$/ }),
    default: 'http://127.0.0.1:8081',
    doc: 'The control plane’s agent (gRPC) listener.',
  },
  token: {
    schema: z.string().regex(/^lat\.[\w-]{20,}$/, 'must be an agent token (lat.…)'),
    default: undefined,
    doc: 'Agent token from `npx lookout agent-token create --region R`. Required.',
  },
  region: {
    schema: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/)
      .optional(),
    default: undefined,
    doc: 'Expected region; the agent refuses to run if its token is for another one.',
  },
  instance_id: {
    schema: z.string().regex(/^[\w.:-]{1,200}$/),
    default: hostname(),
    doc: 'Stable name of this agent instance (unique per region); defaults to the host name.',
  },
  check_types: {
    schema: z
      .string()
      .transform((v) => v.split(',').map((t) => t.trim()))
      .pipe(
        z.array(z.enum(MONITOR_TYPES, { error: `each must be one of ${MONITOR_TYPES.join(', ')}` })).min(1),
      )
      .optional(),
    default: undefined,
    doc: 'The check types this agent offers, comma-separated (say `ping` for an agent kept for ICMP); it declares those of them its host can run. Unset: every type its host can run.',
  },
  concurrency: {
    schema: z.coerce.number().int().min(1).max(10_000),
    default: 64,
    doc: 'Checks running at once.',
  },
  queue_max: {
    schema: z.coerce.number().int().min(1),
    default: 100_000,
    doc: 'Checks waiting for a slot before new runs are skipped (counted as dropped runs).',
  },
  buffer_max_results: {
    schema: z.coerce.number().int().min(1),
    default: 400_000,
    doc: 'Unacknowledged results kept while the control plane is unreachable; beyond, the oldest are dropped.',
  },
  buffer_max_bytes: {
    schema: z.coerce
      .number()
      .int()
      .min(1 << 20),
    default: 32 * (1 << 20),
    doc: 'Bytes that unacknowledged results may take (their wire bytes and 16 a result); beyond, the oldest are dropped. Bounds the agent’s memory while the control plane is behind.',
  },
  buffer_max_age_seconds: {
    schema: z.coerce.number().int().min(1),
    default: 3600,
    doc: 'Unacknowledged results older than this are dropped.',
  },
  log_level: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'pino log level.',
  },
  metrics_port: {
    schema: z.coerce.number().int().min(0).max(65535),
    default: 9464,
    doc: 'Port of the agent’s own HTTP listener: `/metrics` (Prometheus) and `/healthz`; 0 picks a free one.',
  },
  metrics_host: {
    schema: z.string().min(1),
    default: '0.0.0.0',
    doc: 'Address that listener binds (0.0.0.0: reachable by Prometheus and Kubernetes probes).',
  },
  block_private_targets: {
    schema: z.enum(['true', 'false']).transform((v) => v === 'true'),
    default: false,
    doc: 'Refuse checks of private, loopback and link-local addresses (after DNS, on every redirect): the SSRF guard for hosted use.',
  },
  data_dir: {
    schema: z.string().min(1).optional(),
    default: undefined,
    doc: 'Directory for what the agent caches across restarts (the RDAP bootstrap data, `rdap-dns.json`); unset: kept in memory only. `npm start` gives its agents `<LOOKOUT_DATA_DIR>/agent`.',
  },
  fping: {
    schema: z.string().min(1),
    default: 'fping',
    doc: 'The fping program ping checks run (a name on PATH or a path); `off`: no ping checks. The agent offers ping checks only when, at start, fping gets an echo reply from 127.0.0.1 (it needs CAP_NET_RAW: see deploy/systemd).',
  },
  rdap_bootstrap_url: {
    schema: z.union([z.literal('off'), z.url({ protocol: /^https?$/ })]),
    default: 'https://data.iana.org/rdap/dns.json',
    doc: 'Where domain checks get their RDAP bootstrap data (IANA’s dns.json), fetched only when a domain check needs it; `off`: only the shipped subset.',
  },
  rdap_refresh_hours: {
    schema: z.coerce
      .number()
      .min(0)
      .max(24 * 30),
    default: 24,
    doc: 'Age after which the RDAP bootstrap data is fetched again, by the next domain check; 0: never fetched.',
  },
  auth_retry_seconds: {
    schema: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 3600),
    default: 300,
    doc: 'After the control plane rejects the token (revoked, expired, wrong): wait about this long before trying again (one error is logged, every rejection counted in `lookout_agent_rpc_errors_total{kind="credentials"}`).',
  },
  nice: {
    schema: z.coerce.number().int().min(0).max(19),
    default: 0,
    doc: 'CPU priority of the agent’s threads as Unix niceness (0–19; 0: left as started). On a box the agent shares with the control plane, a higher value lets the control plane’s requests and result commits go first when the CPU is busy. `npm start` gives its local agents 10.',
  },
  chromium_path: {
    schema: z.string().min(1),
    default: isExecutable(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined,
    doc: 'The Chromium browser checks run (Debian’s `chromium` package; never a downloaded browser). Default: `/usr/bin/chromium` when it exists and is executable. Unset, or not an executable file: the agent does not declare `browser` (logged at start).',
  },
  browser_concurrency: {
    schema: z.coerce.number().int().min(1).max(64),
    default: 2,
    doc: 'Browser checks running at once (each a browser context and a sandbox process); more wait, in a bounded queue, within their timeout.',
  },
  browser_memory_mb: {
    schema: z.coerce.number().int().min(16).max(4096),
    default: 128,
    doc: 'The V8 heap of a browser check’s sandbox process (its script), in MiB; past it the check fails (`memory`).',
  },
  browser_cpu_seconds: {
    schema: z.coerce.number().int().min(1).max(3600),
    default: 30,
    doc: 'CPU seconds a browser check’s sandbox process may use; past it the check fails (`cpu`).',
  },
  shutdown_grace_ms: {
    schema: z.coerce.number().int().min(0),
    default: 10_000,
    doc: 'On SIGTERM, how long to let running checks finish and results flush.',
  },
} satisfies Record<string, { schema: z.ZodType; default: unknown; doc: string }>;

type Keys = typeof agentConfigKeys;
export type AgentConfig = Omit<{ [K in keyof Keys]: z.output<Keys[K]['schema']> }, 'chromium_path'> & {
  token: string;
  chromium_path: string | undefined;
};

export const agentEnvName = (key: string) => `LOOKOUT_AGENT_${key.toUpperCase()}`;

export class AgentConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid agent configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export const loadAgentConfig = (env: NodeJS.ProcessEnv = process.env): AgentConfig => {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(agentConfigKeys)) {
    const name = agentEnvName(key);
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (spec.default === undefined && key === 'token') problems.push(`${name} is required`);
      out[key] = spec.default;
      continue;
    }
    const r = spec.schema.safeParse(raw);
    if (r.success) out[key] = r.data;
    else problems.push(`${name}: ${r.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length > 0) throw new AgentConfigError(problems);
  return out as AgentConfig;
};
