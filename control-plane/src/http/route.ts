import type { Clock, Logger, SecretBox } from '@lookout/shared';
import type { ParameterizedContext } from 'koa';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Session } from '../domain/access/sessions.js';
import type { ContactServices } from '../domain/contacts/contact-methods.js';
import type { PingBatcher } from '../domain/heartbeats/ping-batcher.js';
import type { PingKeyCache } from '../domain/heartbeats/ping-key-cache.js';
import type { Dispatcher } from '../domain/notifications/messages.js';
import type { DomainLookup } from '../domain/status-pages/custom-domain-proof.js';
import type { ViewCache } from '../domain/status-pages/view-cache.js';
import type { ApiKey, Integration, IntegrationKind, Role, User, Workspace } from '../domain/types.js';
import type { MailRouter } from '../notify/mail-route.js';
import type { Metrics } from '../process/metrics.js';
import type { Store } from '../store/port.js';
import type { RouteAudit } from './audit-plan.js';

export interface AppDeps {
  store: Store;
  config: Config;
  clock: Clock;
  logger: Logger;
  pings: PingBatcher;
  metrics?: Metrics;
  /** The shared services, built once by the process (process/wiring.ts): secrets sealed and opened. */
  box: SecretBox;
  /** Which SMTP server an email of a workspace goes through (account mail: password reset links). */
  mail: MailRouter;
  /** Test sends of channels, contact methods and mail settings. */
  dispatcher: Dispatcher;
  /** The deployment's accounts behind contact methods (Telegram, Twilio, Pushover). */
  contactServices: ContactServices;
  /** DNS questions of custom-domain proofs. */
  domainLookup: DomainLookup;
  /** True once shutdown began: readiness fails so balancers stop sending traffic. */
  isDraining?: () => boolean;
  /** More for the /healthz body (the process stays live: /healthz answers 200 whatever it says). */
  health?: () => Record<string, unknown>;
  /** The base URL of a workspace for printed URLs, from configuration alone (see public-url.ts). */
  workspaceUrl(subdomain: string): string;
  /** The public status pages' cache (createApp makes one): edits through the API invalidate it. */
  statusCache?: ViewCache;
  /** Which workspace a ping key names, one cache per replica: regenerating a key here forgets the old one at once. */
  pingKeyCache?: PingKeyCache;
}

/**
 * What a route module is given: the app's dependencies with only the store ports it uses (its type
 * says which), never the whole store.
 */
export type RouteDeps<Ports> = Omit<AppDeps, 'store'> & { store: Ports };

export interface ApiState {
  requestId: string;
  log: Logger;
  workspace: Workspace | null;
  auth?: { user: User; key?: ApiKey | undefined; session?: Session | undefined };
  /** A handler's success status when it depends on the outcome (a PUT: 201 created, 200 replaced). */
  status?: number;
}

export type ApiContext = ParameterizedContext<ApiState>;

/** Who is calling: a user, through either an API key or a web app session (never both). */
export interface Authed {
  workspace: Workspace;
  user: User;
  key?: ApiKey | undefined;
  session?: Session | undefined;
}

export interface RouteInput<Q> {
  ctx: ApiContext;
  params: Record<string, string>;
  query: Q;
  body: unknown;
  /** Present on routes with auth 'api_key' or 'session'. */
  auth: Authed;
  /** Present on routes with auth 'service_key': the integration the service key names. */
  integration: Integration;
}

/**
 * One declaration per endpoint: the router serves it and the OpenAPI document describes it from the
 * same schemas, so the two cannot drift.
 */
export interface RouteDef<Q = Record<string, never>> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI-style path under /api/v1, e.g. `/monitors/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /**
   * 'api_key' (default): an API key (X-API-Key) or a web app session (cookie, plus the CSRF header on
   * writes), with the same role checks; 'session': a session only (minting keys, the password, sign-out:
   * an API key gets 403); 'none' for heartbeat pings and sign-in; 'service_key' for inbound integration
   * endpoints (see `serviceKey`). API keys and service keys are checked by the app, through one
   * failed-credential limit, before the handler runs.
   */
  auth?: 'api_key' | 'session' | 'none' | 'service_key';
  /**
   * For auth 'service_key': the integration kind served, and where its key is when not in the headers
   * (PagerDuty's routing_key: read from the parsed body, checked before the body is validated).
   */
  serviceKey?: { kind: IntegrationKind; inBody?: (body: unknown) => string | undefined };
  /** Body size limit when not the API's default (config max_body_bytes). */
  maxBodyBytes?: number;
  /** The body schema accepts fields it does not know (other tools' payloads, which grow over time). */
  extraFields?: boolean;
  /** Further absolute paths served by the same handler (e.g. PagerDuty's /v2/enqueue). */
  aliases?: string[];
  /** Least role allowed; default viewer. */
  role?: Role;
  query?: z.ZodType<Q>;
  /** The schema the domain validates the body with (documented as the request body). */
  body?: z.ZodType;
  status?: number;
  /**
   * The success body (status `status`, default 200) as clients receive it, in JSON; `null` for a
   * route that answers with no body (204). Documented in the OpenAPI document and, with config
   * `validate_responses` (on in tests), checked against every response the route gives.
   */
  response: z.ZodType | null;
  /**
   * The success body is bytes of one of these content types, not JSON (`response: null`): the handler
   * sets `ctx.type` and returns the bytes (a Uint8Array) or a stream. With a `response` as well, the
   * route answers JSON unless the handler returns bytes (a report's CSV, when asked for).
   */
  binary?: readonly string[];
  responses?: Record<number, string>;
  /** Served outside Koa (see ping-endpoint.ts); declared for the API document only. */
  raw?: boolean;
  /**
   * The route's audit entry where the derivation from its method and path (http/audit-plan.ts) is not
   * right: another action or resource type, an action that changes no record, a sign-in, or none.
   */
  audit?: RouteAudit;
  handler?(input: RouteInput<Q>): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of routes
export type AnyRoute = RouteDef<any>;

export const route = <Q = Record<string, never>>(def: RouteDef<Q>): AnyRoute => def as AnyRoute;
