import { AppError, type FieldProblem, type SecretBox } from '@lookout/shared';
import { SCRIPTED_TYPES, secretNames, secretUses } from '../secrets/references.js';
import { secretContext } from '../secrets/sealed-secrets.js';
import type { SecretStore, WorkspaceSecret } from '../secrets/secret-store.js';
import {
  checkSecretName,
  checkSecretRoom,
  missingSecretMessage,
  secretHint,
  secretNotFound,
  secretPut,
} from '../secrets/secrets.js';
import type { Monitor } from '../types.js';
import type { MonitorStore } from './monitor-store.js';

/**
 * Monitors and the workspace secrets they name (docs/scripted-checks.md, "Workspace secrets").
 *
 * - Saving: every path that creates or changes a monitor (API create, patch and batch; configuration
 *   as code goes through them) calls secretsOnSave: a name not set is a problem on the field that uses
 *   it; the ones set are copied, sealed as the secrets table keeps them, into
 *   `settings.sealed_secrets` (the agent's assignment opens them with openSecrets: no lookup per
 *   assignment). The API, MCP and exports never show `settings.sealed_secrets`: the monitor's JSON
 *   carries only its type's own fields.
 * - A value replaced (putWorkspaceSecret) rewrites the copy in every monitor naming it, each one a
 *   normal compare-and-set monitor update that bumps its version, so the feed tells the agents.
 * - A secret that monitors use cannot be deleted (409 naming them).
 */
export type MonitorSecretLookup = Pick<SecretStore, 'getSecrets'>;

/**
 * The save hook: for each monitor, a problem per use of a secret not set in the workspace, and the
 * monitor with its sealed copies (none for a monitor naming none). One read for the whole batch.
 */
export const secretsOnSave = async (
  store: MonitorSecretLookup,
  workspaceId: string,
  monitors: readonly Monitor[],
): Promise<{ problems: FieldProblem[][]; monitors: Monitor[] }> => {
  const uses = monitors.map((m) => secretUses(m.monitor_type, m.settings));
  const names = secretNames(uses.flat());
  const found = new Map(
    (names.length === 0 ? [] : await store.getSecrets(workspaceId, names)).map((s) => [s.name, s]),
  );
  return {
    problems: uses.map((u) =>
      u
        .filter((use) => !found.has(use.name))
        .map((use) => ({ field: use.field, message: missingSecretMessage(use.name) })),
    ),
    monitors: monitors.map((m, i) => withCopies(m, secretNames(uses[i]!), found)),
  };
};

const withCopies = (m: Monitor, names: string[], found: Map<string, WorkspaceSecret>): Monitor => {
  const { sealed_secrets: _old, ...settings } = m.settings;
  const set = names.filter((n) => found.has(n));
  if (set.length === 0) return { ...m, settings };
  return {
    ...m,
    settings: {
      ...settings,
      sealed_secrets: Object.fromEntries(set.map((n) => [n, found.get(n)!.sealed_value])),
    },
  };
};

/** The most monitors read per page while looking for the ones naming a secret. */
const PAGE = 100;

/**
 * The workspace's scripted monitors (multistep and browser: the only types that can name a secret),
 * each with the secret names it uses. Bounded by the plan's monitor limit, paged.
 */
const scriptedMonitors = async (
  store: Pick<MonitorStore, 'listMonitors'>,
  workspaceId: string,
): Promise<{ monitor: Monitor; names: string[] }[]> => {
  const out: { monitor: Monitor; names: string[] }[] = [];
  for (const monitor_type of SCRIPTED_TYPES) {
    let cursor: string | undefined;
    do {
      const page = await store.listMonitors(workspaceId, { monitor_type, limit: PAGE, cursor });
      for (const monitor of page.data)
        out.push({ monitor, names: secretNames(secretUses(monitor.monitor_type, monitor.settings)) });
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
  return out;
};

export interface SecretUser {
  id: string;
  display_name: string;
}

/** Which monitors use each secret of the workspace (one paged read of its scripted monitors). */
export const secretUsers = async (
  store: Pick<MonitorStore, 'listMonitors'>,
  workspaceId: string,
): Promise<Map<string, SecretUser[]>> => {
  const users = new Map<string, SecretUser[]>();
  for (const { monitor, names } of await scriptedMonitors(store, workspaceId))
    for (const name of names) {
      const list = users.get(name) ?? [];
      list.push({ id: monitor.id, display_name: monitor.display_name });
      users.set(name, list);
    }
  for (const list of users.values()) list.sort((a, b) => a.display_name.localeCompare(b.display_name));
  return users;
};

export interface SecretContext {
  store: SecretStore & Pick<MonitorStore, 'listMonitors' | 'getMonitor' | 'updateMonitor'>;
  box: SecretBox;
  workspaceId: string;
  now: Date;
}

/** How often a monitor changed meanwhile is read again before its copy is left for its next save. */
const ATTEMPTS = 5;

/**
 * `PUT /secrets/{NAME}`: sets or replaces the value (sealed; the hint is its last four characters when
 * long enough), then rewrites the sealed copy of every monitor naming it (compare-and-set, re-read
 * when it changed meanwhile). Answers whether it was created.
 */
export const putWorkspaceSecret = async (
  ctx: SecretContext,
  rawName: string,
  body: unknown,
  userId: string | null,
): Promise<{ secret: WorkspaceSecret; created: boolean }> => {
  const { name, value } = secretPut(rawName, body);
  checkSecretRoom(await ctx.store.listSecrets(ctx.workspaceId), name);
  const secret: WorkspaceSecret = {
    workspace_id: ctx.workspaceId,
    name,
    sealed_value: ctx.box.seal(value, secretContext(ctx.workspaceId, name)),
    hint: secretHint(value),
    created_at: ctx.now,
    updated_at: ctx.now,
    updated_by: userId,
  };
  const created = await ctx.store.putSecret(secret);
  for (const { monitor, names } of await scriptedMonitors(ctx.store, ctx.workspaceId))
    if (names.includes(name)) await rewriteCopy(ctx, monitor, name, secret.sealed_value);
  const stored = created ? secret : await ctx.store.getSecret(ctx.workspaceId, name);
  return { secret: stored ?? secret, created };
};

const rewriteCopy = async (ctx: SecretContext, first: Monitor, name: string, sealed: string) => {
  let m: Monitor | null = first;
  for (let i = 0; i < ATTEMPTS && m; i++) {
    if (!secretNames(secretUses(m.monitor_type, m.settings)).includes(name)) return;
    const copies = { ...((m.settings.sealed_secrets ?? {}) as Record<string, string>), [name]: sealed };
    const next: Monitor = {
      ...m,
      settings: { ...m.settings, sealed_secrets: copies },
      updated_at: ctx.now,
      version: m.version + 1,
    };
    if ((await ctx.store.updateMonitor(next, m.version)) !== 'conflict') return;
    m = await ctx.store.getMonitor(ctx.workspaceId, m.id);
  }
};

/** `DELETE /secrets/{NAME}`: 404 when not set, 409 naming the monitors that use it. */
export const deleteWorkspaceSecret = async (ctx: SecretContext, rawName: string): Promise<void> => {
  const name = checkSecretName(rawName);
  if (!(await ctx.store.getSecret(ctx.workspaceId, name))) throw secretNotFound(name);
  const users = (await secretUsers(ctx.store, ctx.workspaceId)).get(name) ?? [];
  if (users.length > 0)
    throw new AppError(
      'conflict',
      `Secret ${name} is used by ${users.length} monitor${users.length === 1 ? '' : 's'}; change them first.`,
      [{ field: 'monitors', message: `used by ${users.map((u) => u.display_name).join(', ')}` }],
    );
  if (!(await ctx.store.deleteSecret(ctx.workspaceId, name))) throw secretNotFound(name);
};

/** `GET /secrets/{NAME}`: 404 when not set. */
export const loadWorkspaceSecret = async (
  ctx: Pick<SecretContext, 'store' | 'workspaceId'>,
  rawName: string,
) => {
  const secret = await ctx.store.getSecret(ctx.workspaceId, checkSecretName(rawName));
  if (!secret) throw secretNotFound(rawName);
  return secret;
};
