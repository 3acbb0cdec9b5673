import type { SignInVia } from '../domain/audit/sign-ins.js';

/**
 * A route's own word on its audit entry, where the derivation from its path and method is not right
 * (RouteDef.audit).
 */
export interface RouteAudit {
  /** `<resource_type>.<verb>` instead of the derived one. */
  action?: string;
  resource_type?: string;
  /**
   * The action changes no record (a test send, a preview, a code sent): no store step writes the
   * entry, the route layer appends it after the handler succeeds.
   */
  noRecord?: true;
  /** A sign-in: `session.sign_in` on success, `session.sign_in_failed` on 401/403/429, with this `via`. */
  signIn?: SignInVia | ((body: unknown) => SignInVia);
  /** No entry: the route is no change to configuration or access (the reason is given here). */
  none?: string;
  /** The resource is the caller: its id is the signed-in user's. */
  self?: true;
  /** The path parameter naming the resource, where it is not the last one or the action is a create. */
  idParam?: string;
}

export interface AuditPlan {
  action: string;
  resource_type: string;
  /** How the before/after is read: a create has no before; a delete no after. */
  kind: 'create' | 'update' | 'delete' | 'action';
  /** The path parameter naming the resource (the last one), if any. */
  idParam: string | null;
  noRecord: boolean;
  signIn: RouteAudit['signIn'] | null;
  /** The resource is the caller (`/me/…`, `/session/password`): its id is the signed-in user's. */
  self: boolean;
}

const MUTATING = new Set(['post', 'put', 'patch', 'delete']);

/** `escalation-policies` → `escalation_policy`, `status-pages` → `status_page`, `me` → `user`. */
export const singular = (segment: string) => {
  if (segment === 'me') return 'user';
  const s = segment.replace(/-/g, '_');
  if (s.endsWith('ies')) return `${s.slice(0, -3)}y`;
  if (s.endsWith('ss')) return s;
  return s.endsWith('s') ? s.slice(0, -1) : s;
};

const plural = (segment: string) => /s$/.test(segment) && !segment.endsWith('ss');

/**
 * The audit entry a mutating route writes, derived from its method and path (null for reads and for
 * routes that declare `audit.none`): the resource type is the last collection of the path
 * (`/monitors/{id}` → `monitor`; `/status-pages/{id}/incidents` → `incident`); a last segment that is
 * no collection is a verb on what precedes it (`/monitors/{id}/check` → `monitor.check`,
 * `/ping-key/regenerate` → `ping_key.regenerate`); otherwise POST creates, PUT and PATCH update,
 * DELETE deletes. `route.audit` overrides either part.
 */
export const auditPlan = (r: {
  method: string;
  path: string;
  audit?: RouteAudit | undefined;
}): AuditPlan | null => {
  if (!MUTATING.has(r.method) || r.audit?.none) return null;
  const segments = r.path.split('/').filter(Boolean);
  const params = segments.filter((s) => s.startsWith('{'));
  const idParam = params.length > 0 ? params[params.length - 1]!.slice(1, -1) : null;
  const last = segments[segments.length - 1]!;
  const words = segments.filter((s) => !s.startsWith('{') && s !== 'api' && s !== 'v1');
  let resource: string;
  let verb: string;
  let kind: AuditPlan['kind'];
  const isParam = last.startsWith('{');
  if (!isParam && !plural(last) && words.length > 1) {
    // A verb on what precedes it: /monitors/{id}/check, /ping-key/regenerate, /alerts/acknowledge.
    resource = singular(words[words.length - 2]!);
    verb = last.replace(/-/g, '_');
    kind = verb === 'create' ? 'create' : 'action';
    if (r.method !== 'post') verb = `${verb}.${r.method === 'delete' ? 'delete' : 'update'}`;
  } else {
    resource = singular(isParam ? words[words.length - 1]! : last);
    kind =
      r.method === 'delete'
        ? 'delete'
        : r.method === 'post' && !isParam
          ? 'create'
          : r.method === 'post'
            ? 'action'
            : 'update';
    verb = kind === 'action' ? 'update' : kind;
  }
  const resource_type = r.audit?.resource_type ?? resource;
  const action = r.audit?.action ?? (r.audit?.signIn ? 'session.sign_in' : `${resource_type}.${verb}`);
  return {
    action,
    resource_type,
    kind,
    // A create's id is the new record's (see claimResourceId), not a parent's in the path.
    idParam: r.audit?.idParam ?? (kind === 'create' ? null : idParam),
    noRecord: r.audit?.noRecord === true,
    signIn: r.audit?.signIn ?? null,
    self: r.audit?.self === true || (idParam === null && segments.includes('me')),
  };
};
