import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { AppError, isAppError, newId, systemClock } from '@lookout/shared';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createNamedKey, keyStatus, regenerateLegacyKey } from '../domain/access/api-keys.js';
import { changeUserRole } from '../domain/access/members.js';
import { mintPasswordReset, RESET_MINUTES, resetLink } from '../domain/access/password-reset.js';
import { createAgentToken } from '../domain/agents/agent-tokens.js';
import { raiseAlert } from '../domain/alerts/alerts.js';
import { entryOf } from '../domain/audit/audit-scope.js';
import { createUser, createWorkspace } from '../domain/tenancy/workspaces.js';
import type { User, Workspace } from '../domain/types.js';
import { alertJson } from '../http/alerts/responses.js';
import { apiKeyJson } from '../http/api-keys/responses.js';
import { agentJson } from '../http/regions/responses.js';
import { loadMcpSettings } from '../mcp/settings.js';
import { workspaceBaseUrl } from '../public-url.js';
import { allPages } from '../store/cursor.js';
import { openStore } from '../store/open-store.js';
import { type Store, StoreMissingError } from '../store/port.js';
import { asCli, cliDraft } from './cli-audit.js';

/**
 * `npx lookout …`: the admin CLI. Same config as the server, so the same store. Human output by
 * default, JSON with --json; a non-zero exit and one line on stderr on failure.
 */
const USAGE = `Usage: npx lookout <command> [options] [--json]

  workspace create   --subdomain S --admin-email E [--plan P]
  user create        --workspace S --email E --role admin|member|viewer
  user set-role      --workspace S --email E --role admin|member|viewer
  user reset-link    --workspace S --email E       a password reset link for the user, valid 30 minutes, once
  api-key create     --workspace S --email E --name N --expiry none|1d|7d|30d|90d|<YYYY-MM-DD or ISO date-time>
  api-key list       --workspace S [--email E]
  api-key revoke     --workspace S --id ID
  legacy-key regenerate --workspace S --email E
  alert test         --workspace S [--name TITLE]   raise a test alert (to try alert handling end to end)
  agent-token create --region R [--name N]          token for the agents of a region (shown once)
  agent-token list
  agent-token revoke --id ID
  agent list         [--region R]                   the agents of the deployment, with their health and the check types each runs
  mcp                [--config FILE]               MCP server on stdio for AI assistants (see README)

  export             [-o FILE]                      the workspace's configuration as YAML (stdout)
  plan               -f FILE [--prune]              what apply would change; exit 0 nothing, 2 changes
  apply              -f FILE [--prune]              make the workspace match FILE (--prune also deletes
                                                    what the file does not name, in the kinds it lists)

  import uptime-kuma FILE [-o OUT]                           a configuration file made from another
  import healthchecks (--api-url URL --api-key KEY | FILE)   tool's settings (stdout, or -o OUT) to
  import uptimerobot (--api-key KEY [--api-url URL] | FILE)  review with plan and apply; what cannot be
  import gatus FILE [-o OUT]                                 mapped is listed on stderr and in the file

Configuration comes from LOOKOUT_* environment variables, as for the server. \`mcp\` instead talks to
the API: SERVICE_API_KEY and SERVICE_API_URL, or "api_key" and "api_url" in FILE
(default ~/.config/lookout/mcp.json). \`export\`, \`plan\` and \`apply\` talk to the API too, with
LOOKOUT_API_URL and LOOKOUT_API_KEY (or SERVICE_API_URL and SERVICE_API_KEY). \`import\` reads only
its input (--api-url and --api-key are the other tool's API) and writes the file.`;

const options = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  subdomain: { type: 'string' },
  'admin-email': { type: 'string' },
  plan: { type: 'string' },
  workspace: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  expiry: { type: 'string' },
  id: { type: 'string' },
  region: { type: 'string' },
  config: { type: 'string' },
  file: { type: 'string', short: 'f' },
  output: { type: 'string', short: 'o' },
  prune: { type: 'boolean' },
  'api-url': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

type Flags = Partial<Record<keyof typeof options, string | boolean>>;
type Out = { json: unknown; text: string };

const need = (flags: Flags, ...names: (keyof typeof options)[]) => {
  const missing = names.filter((n) => typeof flags[n] !== 'string' || flags[n] === '');
  if (missing.length) throw new AppError('bad_request', `missing ${missing.map((m) => `--${m}`).join(', ')}`);
  return names.map((n) => flags[n] as string);
};

const workspaceOf = async (store: Store, sub: string): Promise<Workspace> => {
  const ws = await store.getWorkspaceBySubdomain(sub);
  if (!ws) throw new AppError('not_found', `no workspace with subdomain "${sub}"`);
  return ws;
};
const userOf = async (store: Store, ws: Workspace, email: string): Promise<User> => {
  const u = await store.getUserByEmail(ws.id, email.toLowerCase());
  if (!u) throw new AppError('not_found', `no user ${email} in workspace "${ws.subdomain}"`);
  return u;
};

const commands: Record<string, (store: Store, flags: Flags, config: Config) => Promise<Out>> = {
  async 'workspace create'(store, flags, config) {
    const [subdomain, email] = need(flags, 'subdomain', 'admin-email');
    const plan = (flags.plan as string | undefined) ?? 'free';
    const r = await createWorkspace(
      store,
      config.plans,
      { subdomain, admin_email: email, plan },
      systemClock.now(),
    );
    // The workspace exists only once made: its first entry follows it.
    await store.appendAuditEntry(
      entryOf(
        cliDraft(r.workspace.id, {
          action: 'workspace.create',
          resource_type: 'workspace',
          resource_id: r.workspace.id,
          changes: { subdomain: [null, subdomain], plan: [null, plan], admin_email: [null, r.admin.email] },
        }),
      ),
    );
    const apiUrl = `${workspaceBaseUrl(config, r.workspace.subdomain, config.http_port)}/api/v1`;
    return {
      json: {
        workspace: { id: r.workspace.id, subdomain, plan, api_url: apiUrl },
        admin: { id: r.admin.id, email: r.admin.email, password: r.password },
      },
      text: `Created workspace "${subdomain}" (${plan} plan) at ${apiUrl}. Admin ${r.admin.email}, password (shown once): ${r.password}`,
    };
  },
  async 'user create'(store, flags) {
    const [sub, email, role] = need(flags, 'workspace', 'email', 'role');
    const ws = await workspaceOf(store, sub!);
    const r = await asCli(
      store,
      ws.id,
      { action: 'user.create', resource_type: 'user', changes: { email: [null, email], role: [null, role] } },
      (s) => createUser(s, ws, { email: email!, role: role as User['role'] }, systemClock.now()),
    );
    return {
      json: { user: { id: r.user.id, email: r.user.email, role: r.user.role, password: r.password } },
      text: `Created ${r.user.role} ${r.user.email} in "${sub}". Password (shown once): ${r.password}`,
    };
  },
  async 'user set-role'(store, flags) {
    const [sub, email, role] = need(flags, 'workspace', 'email', 'role');
    const ws = await workspaceOf(store, sub!);
    const user = await userOf(store, ws, email!);
    // The API's rule too: the workspace keeps at least one active admin.
    const changed = await asCli(
      store,
      ws.id,
      {
        action: 'user.update',
        resource_type: 'user',
        resource_id: user.id,
        changes: { role: [user.role, role] },
      },
      (s) => changeUserRole(s, ws.id, user.id, { role }),
    );
    return {
      json: { user: { id: changed.id, email: changed.email, role: changed.role } },
      text: `${changed.email} is now ${changed.role} in "${sub}"; their keys act with this role from their next request.`,
    };
  },
  async 'user reset-link'(store, flags, config) {
    const [sub, email] = need(flags, 'workspace', 'email');
    const ws = await workspaceOf(store, sub!);
    const user = await userOf(store, ws, email!);
    const token = await mintPasswordReset(store, user, systemClock.now());
    const link = resetLink(workspaceBaseUrl(config, ws.subdomain, config.http_port), token);
    return {
      json: { user: { id: user.id, email: user.email }, reset_url: link, valid_minutes: RESET_MINUTES },
      text: `Open this link to choose a new password for ${user.email} (valid ${RESET_MINUTES} minutes, once; it signs them out everywhere):\n${link}`,
    };
  },
  async 'api-key create'(store, flags) {
    const [sub, email, name, expiry] = need(flags, 'workspace', 'email', 'name', 'expiry');
    const ws = await workspaceOf(store, sub!);
    const user = await userOf(store, ws, email!);
    const now = systemClock.now();
    const { record, value } = await asCli(
      store,
      ws.id,
      {
        action: 'api_key.create',
        resource_type: 'api_key',
        changes: { name: [null, name], expiry: [null, expiry] },
      },
      (s) => createNamedKey(s, ws, user, { name, expiry }, now),
    );
    return {
      json: { ...apiKeyJson(record, now, user), key: value },
      text: `Created API key "${record.name}" for ${user.email}${record.expires_at ? `, expires ${record.expires_at.toISOString()}` : ', no expiry'}.\nKey (shown once, store it now): ${value}`,
    };
  },
  async 'api-key list'(store, flags) {
    const [sub] = need(flags, 'workspace');
    const ws = await workspaceOf(store, sub!);
    const user = typeof flags.email === 'string' ? await userOf(store, ws, flags.email) : null;
    const keys = await allPages((q) => store.listApiKeys(ws.id, { ...q, userId: user?.id }));
    const users = new Map<string, User | null>();
    for (const k of keys)
      if (!users.has(k.user_id)) users.set(k.user_id, await store.getUser(ws.id, k.user_id));
    const now = systemClock.now();
    const rows = keys.map((k) => apiKeyJson(k, now, users.get(k.user_id) ?? undefined));
    const text = rows.length
      ? rows
          .map(
            (k) =>
              `${k.id}  ${k.kind === 'legacy' ? '[legacy] ' : ''}${k.name}  …${k.last_four}  ${k.user_email}  ${k.status}  created ${k.created_at}  expires ${k.expires_at ?? 'never'}  last used ${k.last_used_at ?? 'never'}${k.last_used_from ? ` from ${k.last_used_from}` : ''}`,
          )
          .join('\n')
      : 'No API keys.';
    return { json: { data: rows }, text };
  },
  async 'api-key revoke'(store, flags) {
    const [sub, id] = need(flags, 'workspace', 'id');
    const ws = await workspaceOf(store, sub!);
    const now = systemClock.now();
    const k = await asCli(
      store,
      ws.id,
      { action: 'api_key.revoke', resource_type: 'api_key', resource_id: id! },
      (s) => s.revokeApiKey(ws.id, id!, now),
    );
    if (!k) throw new AppError('not_found', `no API key ${id} in workspace "${sub}"`);
    return {
      json: apiKeyJson(k, now),
      text: `Revoked API key "${k.name}" (…${k.last_four}); status ${keyStatus(k, now)}.`,
    };
  },
  async 'alert test'(store, flags) {
    const [sub] = need(flags, 'workspace');
    const ws = await workspaceOf(store, sub!);
    const now = systemClock.now();
    const title = typeof flags.name === 'string' ? flags.name : 'Test alert from the Lookout CLI';
    const { alert } = await asCli(store, ws.id, { action: 'alert.test', resource_type: 'alert' }, (s) =>
      raiseAlert(
        s,
        {
          workspace_id: ws.id,
          source_type: 'integration',
          source_id: 'cli',
          cause: 'test',
          dedup_key: newId(),
          title,
        },
        now,
      ),
    );
    return { json: alertJson(alert), text: `Raised test alert ${alert.id}: ${title}` };
  },
  async 'agent-token create'(store, flags, { regions }) {
    const [region] = need(flags, 'region');
    const { record, value } = await createAgentToken(
      store,
      regions,
      { region: region!, ...(typeof flags.name === 'string' ? { name: flags.name } : {}) },
      systemClock.now(),
    );
    return {
      json: { id: record.id, region: record.region, name: record.name, token: value },
      text: `Agent token for ${record.region} (shown once; set it as LOOKOUT_AGENT_TOKEN): ${value}`,
    };
  },
  async 'agent-token list'(store) {
    const tokens = await store.listAgentTokens();
    const rows = tokens.map((t) => ({
      id: t.id,
      region: t.region,
      name: t.name,
      created_at: t.created_at.toISOString(),
      revoked_at: t.revoked_at?.toISOString() ?? null,
    }));
    return {
      json: { data: rows },
      text: rows.length
        ? rows
            .map(
              (t) =>
                `${t.id}  ${t.region}  ${t.name}  created ${t.created_at}${t.revoked_at ? `  revoked ${t.revoked_at}` : ''}`,
            )
            .join('\n')
        : 'No agent tokens.',
    };
  },
  async 'agent-token revoke'(store, flags) {
    const [id] = need(flags, 'id');
    if (!(await store.revokeAgentToken(id!, systemClock.now())))
      throw new AppError('not_found', `no active agent token ${id}`);
    return {
      json: { id, revoked: true },
      text: `Revoked agent token ${id}; agents using it are refused from their next call.`,
    };
  },
  async 'agent list'(store, flags, { agent_live_seconds }) {
    const now = systemClock.now().getTime();
    const sessions = await store.listAgentSessions(
      typeof flags.region === 'string' ? flags.region : undefined,
    );
    const rows = sessions
      .map((s) => agentJson(s, now, agent_live_seconds * 1000))
      .sort((a, b) => a.region.localeCompare(b.region) || a.instance_id.localeCompare(b.instance_id));
    return {
      json: { data: rows },
      text: rows.length
        ? rows
            .map(
              (a) =>
                `${a.instance_id}  ${a.region}  ${a.healthy ? 'healthy' : 'unhealthy'}  ${a.hostname}  v${a.agent_version}  runs ${a.check_types.join(',') || 'nothing'}  last seen ${a.last_seen_at}  last result ${a.last_result_at ?? 'never'}`,
            )
            .join('\n')
        : 'No agents.',
    };
  },
  async 'legacy-key regenerate'(store, flags) {
    const [sub, email] = need(flags, 'workspace', 'email');
    const ws = await workspaceOf(store, sub!);
    const user = await userOf(store, ws, email!);
    const now = systemClock.now();
    const { record, value } = await asCli(
      store,
      ws.id,
      { action: 'api_key.regenerate', resource_type: 'api_key' },
      (s) => regenerateLegacyKey(s, ws, user, now),
    );
    return {
      json: { ...apiKeyJson(record, now, user), key: value },
      text: `New legacy key for ${user.email}; the previous one no longer works.\nKey (shown once): ${value}`,
    };
  },
};

const run = async (argv: string[]): Promise<number> => {
  const { values: flags, positionals } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: true,
  });
  const name = positionals.slice(0, 2).join(' ');
  if (flags.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return flags.help ? 0 : 2;
  }
  if (positionals[0] === 'mcp' && positionals.length === 1) {
    // An HTTP client of the public API with the user's key: no server config, no store.
    const settings = loadMcpSettings({
      env: process.env,
      home: homedir(),
      ...(typeof flags.config === 'string' ? { configPath: flags.config } : {}),
    });
    const { runStdioMcpServer } = await import('../mcp/server.js');
    await runStdioMcpServer(settings);
    return 0;
  }
  if (['export', 'plan', 'apply'].includes(positionals[0]!) && positionals.length === 1) {
    // Clients of the public API with a key: no server config, no store.
    const { runConfigCommand } = await import('../config-as-code/commands.js');
    return runConfigCommand(
      positionals[0] as 'export' | 'plan' | 'apply',
      {
        ...(typeof flags.file === 'string' ? { file: flags.file } : {}),
        ...(typeof flags.output === 'string' ? { output: flags.output } : {}),
        prune: flags.prune === true,
      },
      {
        env: process.env,
        out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
        err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
        now: () => systemClock.now(),
      },
    );
  }
  if (positionals[0] === 'import' && positionals.length <= 3) {
    // Reads another tool's settings and writes a file: no server config, no store.
    const { runImportCommand } = await import('../importers/import-command.js');
    return runImportCommand(
      positionals[1],
      {
        ...(positionals[2] !== undefined ? { file: positionals[2] } : {}),
        ...(typeof flags.output === 'string' ? { output: flags.output } : {}),
        ...(typeof flags['api-url'] === 'string' ? { apiUrl: flags['api-url'] } : {}),
        ...(typeof flags['api-key'] === 'string' ? { apiKey: flags['api-key'] } : {}),
      },
      {
        env: process.env,
        out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
        err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
        now: () => systemClock.now(),
      },
    );
  }
  const command = commands[name];
  if (!command)
    throw new AppError('bad_request', `unknown command "${positionals.join(' ')}"; see npx lookout --help`);
  const config = loadConfig();
  // Only `workspace create` may make a new store; anything else on a missing one would act on an
  // empty database that the server never sees (a wrong LOOKOUT_DATA_DIR, say).
  const store = await openStore(config, { mustExist: name !== 'workspace create' });
  try {
    const out = await command(store, flags as Flags, config);
    process.stdout.write(`${flags.json ? JSON.stringify(out.json, null, 2) : out.text}\n`);
    return 0;
  } finally {
    await store.close();
  }
};

run(process.argv.slice(2)).then(
  // Exit once stdout has taken everything written (an export of many monitors fills a pipe's buffer).
  (code) => process.stdout.write('', () => process.exit(code)),
  (e: unknown) => {
    const msg = isAppError(e)
      ? e.details.length
        ? `${e.message} ${e.details.map((d) => `${d.field} ${d.message}`).join('; ')}`
        : e.message
      : e instanceof ConfigError
        ? e.message
        : e instanceof StoreMissingError
          ? `${e.message}; point LOOKOUT_DATA_DIR (or LOOKOUT_MONGODB_URI) at the server's store, or make a new one with "workspace create"`
          : (e as Error).message;
    process.stderr.write(`lookout: ${msg}\n`);
    process.exit(1);
  },
);
