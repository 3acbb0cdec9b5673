import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { AuditActor, AuditEntry, AuditStore } from './audit-store.js';

/**
 * The audit entry a request (or a CLI command) is about to cause, held for the duration of its
 * handler in an AsyncLocalStorage. The store adapters' transaction primitives (SQLite `immediate`,
 * Mongo `inTransaction`) write a pending draft inside the transaction that commits the change, so a
 * change and its entry are one store step (docs/decisions.md, "The audit entry rides the change's
 * transaction"). Jobs run outside any scope and write no entry.
 */
export interface AuditDraft {
  id: string;
  workspace_id: string;
  at: Date;
  actor: AuditActor;
  ip: string | null;
  user_agent: string | null;
  action: string;
  resource_type: string;
  /** Null for a create until the record it writes names it (see `claimResourceId`). */
  resource_id: string | null;
  changes: Record<string, [unknown, unknown]> | null;
  /** Set when a store step holds the draft (inside a transaction not yet committed). */
  claimed: boolean;
  /** Set once the transaction that wrote it committed. */
  written: boolean;
}

const scope = new AsyncLocalStorage<AuditDraft>();

export const USER_AGENT_MAX = 512;

export const newDraft = (
  d: Omit<AuditDraft, 'id' | 'claimed' | 'written' | 'user_agent'> & { user_agent: string | null },
): AuditDraft => ({
  ...d,
  id: randomUUID(),
  user_agent: d.user_agent === null ? null : d.user_agent.slice(0, USER_AGENT_MAX),
  claimed: false,
  written: false,
});

/** Runs `fn` with `draft` as the entry its store steps write. */
export const withAuditDraft = <T>(draft: AuditDraft, fn: () => T): T => scope.run(draft, fn);

/** The current scope's draft, whatever its state (the route layer checks it after the handler). */
export const currentAuditDraft = (): AuditDraft | undefined => scope.getStore();

/** The draft a store step should write now: one exists, and no other step holds or wrote it. */
export const pendingAuditDraft = (): AuditDraft | undefined => {
  const d = scope.getStore();
  return d && !d.claimed && !d.written ? d : undefined;
};

/** Runs `fn` outside any draft (a side write of a request that is not the change it records). */
export const withoutAuditDraft = <T>(fn: () => T): T => scope.exit(fn);

export const entryOf = (d: AuditDraft): AuditEntry => ({
  id: d.id,
  workspace_id: d.workspace_id,
  at: d.at,
  actor: d.actor,
  ip: d.ip,
  user_agent: d.user_agent,
  action: d.action,
  resource_type: d.resource_type,
  resource_id: d.resource_id,
  changes: d.changes,
});

/**
 * A create's id is unknown before its handler runs: the store's insert is the first place the new
 * record's id is seen. The route layer's store wrapper calls this with the arguments of each
 * `insert*`/`create*`/`put*`/`replace*`/`invite*` call: a record of the draft's workspace with a string `id` names the
 * resource, once.
 */
export const claimResourceId = (args: unknown[]) => {
  const d = scope.getStore();
  if (!d || d.written || d.claimed || d.resource_id !== null) return;
  for (const a of args) {
    if (a === null || typeof a !== 'object') continue;
    const r = a as { id?: unknown; workspace_id?: unknown };
    if (typeof r.id === 'string' && (r.workspace_id === undefined || r.workspace_id === d.workspace_id)) {
      d.resource_id = r.id;
      return;
    }
  }
};

/** A store whose inserts name the resource of the current draft (a create's id: claimResourceId). */
export const claimingStore = <S extends object>(store: S): S => {
  // One function per method, made on first use (no allocation per call).
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (typeof v !== 'function') return v;
      let w = wrapped.get(prop);
      if (!w) {
        const f = v as (...a: unknown[]) => unknown;
        w =
          typeof prop === 'string' && /^(insert|create|put|upsert|add|replace|invite)/.test(prop)
            ? (...args: unknown[]) => {
                claimResourceId(args);
                return f.apply(target, args);
              }
            : f.bind(target);
        wrapped.set(prop, w);
      }
      return w;
    },
  });
};

/**
 * Whether a store method's result says that it changed nothing (a refusal returned rather than
 * thrown: `false`, `null`, 'not_found', 'name_taken', 'limit_reached'…). MongoDB cannot tell whether a
 * transaction wrote, so its adapter skips the draft on such a result; SQLite counts the rows changed.
 */
export const refusedResult = (r: unknown): boolean => {
  if (r === false || r === null) return true;
  const word = typeof r === 'string' ? r : (r as { outcome?: unknown } | undefined)?.outcome;
  return typeof word === 'string' && REFUSALS.test(word);
};

/** The refusals the adapters return (see each port): nothing was written. */
const REFUSALS =
  /^(not_\w+|\w+_taken|already_\w+|limit_reached|conflict|last_admin|only_target|is_default|in_use|used|unknown|expired|invalid|stale)$/;

/**
 * Runs `fn` with `draft` as the entry its store steps write; when none wrote it (an action that
 * changes no record, or a step outside a transaction), appends it after `fn` succeeds. For callers
 * outside the route table (the CLI): the route layer does the same with its strict check.
 */
export const runAudited = async <T>(
  store: Pick<AuditStore, 'appendAuditEntry'>,
  draft: AuditDraft,
  fn: () => Promise<T>,
): Promise<T> => {
  let result: T;
  try {
    result = await withAuditDraft(draft, fn);
  } catch (e) {
    draft.claimed = true; // closed: nothing left behind in its scope writes it later
    throw e;
  }
  if (!draft.written) {
    await store.appendAuditEntry(entryOf(draft));
    draft.written = true;
  }
  return result;
};
