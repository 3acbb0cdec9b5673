import { AppError } from '@lookout/shared';
import { z } from 'zod';
import { createRateLimiter } from '../domain/access/rate-limiter.js';
import { type AuditDraft, entryOf, newDraft, withAuditDraft } from '../domain/audit/audit-scope.js';
import type { AuditActor, AuditStore } from '../domain/audit/audit-store.js';
import { auditChanges } from '../domain/audit/changes.js';
import { recordSignIn } from '../domain/audit/sign-ins.js';
import type { TenancyStore } from '../domain/tenancy/tenancy-store.js';
import { parseOrThrow } from '../domain/validation.js';
import { type AuditPlan, auditPlan } from './audit-plan.js';
import { internalPrincipalOf } from './internal-principal.js';
import type { AnyRoute, ApiContext, Authed, RouteDeps } from './route.js';

/** Who the request acts as: an OAuth client (the hosted MCP), an API key, a session's user. */
export const actorOf = (ctx: ApiContext, auth: Authed | undefined): AuditActor => {
  const user = auth?.user ?? ctx.state.auth?.user;
  const internal = internalPrincipalOf(ctx.req);
  if (internal)
    return {
      type: 'oauth_client',
      id: internal.via.client_id,
      name: internal.via.client_name ?? internal.via.client_id,
      user_id: internal.user_id,
    };
  const key = auth?.key ?? ctx.state.auth?.key;
  if (key) return { type: 'api_key', id: key.id, name: key.name, user_id: key.user_id };
  if (user) return { type: 'user', id: user.id, name: user.email };
  return { type: 'user', id: null, name: 'anonymous' };
};

const SIGN_IN_FAILURES = new Set(['unauthorized', 'rate_limited', 'forbidden']);

const typedEmail = (body: unknown) => {
  const e = (body as { email?: unknown } | undefined)?.email;
  return typeof e === 'string' ? e.trim().slice(0, 254) : '';
};

export interface AuditedCall {
  ctx: ApiContext;
  params: Record<string, string>;
  body: unknown;
  auth: Authed | undefined;
}

/**
 * The route layer's part of the audit log: each mutating route of the table writes one entry, derived
 * from the route (audit-plan.ts). Before the handler it reads the resource as the route's GET shows it
 * (the same path, or the path the verb acts on), drafts the entry with the changes the body makes, and
 * runs the handler in the draft's scope: the store step that commits the change writes it. A route
 * that changes no record (`audit.noRecord`) gets its entry appended after it succeeds; so does any
 * other whose change no transaction wrote, unless config `audit_strict` (the coverage test) makes that
 * a 500 naming the route, so that a store write left outside a transaction is found.
 */
export const createRouteAudit = (
  {
    store,
    config,
    clock,
  }: Pick<
    RouteDeps<Pick<TenancyStore, 'getUserByEmail'> & Pick<AuditStore, 'appendAuditEntry'>>,
    'store' | 'config' | 'clock'
  >,
  routes: AnyRoute[],
) => {
  const refusalsLogged = createRateLimiter({ capacity: 10, perSecond: 10 / 60, maxKeys: 10_000 });
  const plans = new Map<AnyRoute, AuditPlan | null>(routes.map((r) => [r, auditPlan(r)]));
  const reads = new Map<string, AnyRoute>(
    routes.filter((r) => r.method === 'get' && r.handler).map((r) => [r.path, r]),
  );
  // The route's own GET, else the GET of what precedes its last segment (a verb's resource, or the
  // list a record without its own GET is read from: `before` picks the record out of it).
  const readerOf = (r: AnyRoute) => reads.get(r.path) ?? reads.get(r.path.replace(/\/[^/]+$/, '')) ?? null;

  const before = async (r: AnyRoute, plan: AuditPlan, call: AuditedCall): Promise<unknown> => {
    const get = readerOf(r);
    if (!get?.handler || !call.auth) return null;
    const status = call.ctx.state.status;
    try {
      const read = await get.handler({
        ctx: call.ctx,
        params: call.params,
        query: parseOrThrow(get.query ?? z.object({}), {}, 'query'),
        body: undefined,
        auth: call.auth,
        integration: undefined as never,
      });
      // Read from the list (no GET of the one record): the one the path names, not the whole list.
      const id = plan.idParam ? call.params[plan.idParam] : undefined;
      const data = (read as { data?: unknown } | null)?.data;
      if (get.path !== r.path && id !== undefined && Array.isArray(data))
        return data.find((x) => (x as { id?: unknown } | null)?.id === id) ?? null;
      return read;
    } catch {
      return null; // not there (the handler answers 404 itself), or not readable by this caller
    } finally {
      call.ctx.state.status = status;
    }
  };

  const signIn = async (plan: AuditPlan, call: AuditedCall, run: () => Promise<unknown>) => {
    const ws = call.ctx.state.workspace!;
    const via = typeof plan.signIn === 'function' ? plan.signIn(call.body) : plan.signIn!;
    const base = {
      workspace: ws,
      via,
      ip: call.ctx.ip || null,
      user_agent: call.ctx.get('user-agent') || null,
    };
    let result: unknown;
    try {
      result = await run();
    } catch (e) {
      // A throttled client goes on being refused (429) without filling the log: at most ten of its
      // refusals a minute per address are entries (the 401s before them are bounded by the guard).
      const quiet =
        e instanceof AppError &&
        e.code === 'rate_limited' &&
        !refusalsLogged.take(call.ctx.ip || '-', clock.now().getTime()).ok;
      if (e instanceof AppError && SIGN_IN_FAILURES.has(e.code) && !quiet) {
        const email = typedEmail(call.body);
        const user = email ? await store.getUserByEmail(ws.id, email.toLowerCase()) : null;
        await recordSignIn(store, { ...base, user, email, ok: false, at: clock.now() });
      }
      throw e;
    }
    // A password right for a user with a second factor is no sign-in yet: the factor's step records it.
    if ((result as { second_factor_required?: unknown } | undefined)?.second_factor_required !== true) {
      const user = call.ctx.state.auth?.user ?? null;
      await recordSignIn(store, {
        ...base,
        user,
        email: user?.email ?? typedEmail(call.body),
        ok: true,
        session_id: call.ctx.state.auth?.session?.id ?? null,
        at: clock.now(),
      });
    }
    return result;
  };

  return async (r: AnyRoute, call: AuditedCall, run: () => Promise<unknown>): Promise<unknown> => {
    const plan = plans.get(r);
    const ws = call.ctx.state.workspace;
    if (!plan || !ws) return run();
    if (plan.signIn) return signIn(plan, call, run);
    const was = plan.kind === 'create' ? null : await before(r, plan, call);
    const resourceId = plan.idParam
      ? (call.params[plan.idParam] ?? null)
      : plan.self && plan.kind !== 'create'
        ? // The caller's own session (signing out), else the caller themselves.
          plan.resource_type === 'session'
          ? (call.auth?.session?.id ?? null)
          : (call.auth?.user.id ?? null)
        : null;
    const draft: AuditDraft = newDraft({
      workspace_id: ws.id,
      at: clock.now(),
      actor: actorOf(call.ctx, call.auth),
      ip: call.ctx.ip || null,
      user_agent: call.ctx.get('user-agent') || null,
      action: plan.action,
      resource_type: plan.resource_type,
      resource_id: resourceId,
      changes: auditChanges(plan.kind, plan.resource_type, was, call.body),
    });
    let result: unknown;
    try {
      result = await withAuditDraft(draft, run);
    } catch (e) {
      // Closed: work this request left behind (a timer born in its scope) can never write it later.
      draft.claimed = true;
      throw e;
    }
    if (!draft.written) {
      if (config.audit_strict && !plan.noRecord)
        throw new Error(
          `${r.method.toUpperCase()} ${r.path} succeeded but no store transaction wrote its audit entry: run the store write it makes in a transaction (SQLite immediate, MongoDB inTransaction), or declare audit.noRecord if it changes no record`,
        );
      if (draft.resource_id === null) {
        const id = (result as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string') draft.resource_id = id;
      }
      await store.appendAuditEntry(entryOf(draft));
      draft.written = true;
    }
    return result;
  };
};
