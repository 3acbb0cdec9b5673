import type { Clock, Logger } from '@lookout/shared';
import type { ParameterizedContext } from 'koa';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { PingBatcher } from '../domain/ping-batcher.js';
import type { ApiKey, Role, User, Workspace } from '../domain/types.js';
import type { Metrics } from '../metrics.js';
import type { Store } from '../store/port.js';

export interface AppDeps {
  store: Store;
  config: Config;
  clock: Clock;
  logger: Logger;
  pings: PingBatcher;
  metrics?: Metrics;
  /** True once shutdown began: readiness fails so balancers stop sending traffic. */
  isDraining?: () => boolean;
  /** More for the /healthz body (the process stays live: /healthz answers 200 whatever it says). */
  health?: () => Record<string, unknown>;
  /** The base URL of a workspace for printed URLs, from configuration alone (see public-url.ts). */
  workspaceUrl(subdomain: string): string;
}

export interface ApiState {
  requestId: string;
  log: Logger;
  workspace: Workspace | null;
  auth?: { user: User; key: ApiKey };
}

export type ApiContext = ParameterizedContext<ApiState>;

export interface Authed {
  workspace: Workspace;
  user: User;
  key: ApiKey;
}

export interface RouteInput<Q> {
  ctx: ApiContext;
  params: Record<string, string>;
  query: Q;
  body: unknown;
  /** Present on routes with auth 'api_key'. */
  auth: Authed;
}

/**
 * One declaration per endpoint: the router serves it and the OpenAPI document describes it from the
 * same schemas, so the two cannot drift.
 */
export interface RouteDef<Q = Record<string, never>> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI-style path under /api/v1, e.g. `/monitors/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /**
   * 'api_key' (default); 'none' for heartbeat pings; 'service_key' for inbound integration endpoints,
   * whose handler authenticates the integration's service key itself (PagerDuty's is in the body).
   */
  auth?: 'api_key' | 'none' | 'service_key';
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
  responses?: Record<number, string>;
  /** Served outside Koa (see ping-endpoint.ts); declared for the API document only. */
  raw?: boolean;
  handler?(input: RouteInput<Q>): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of routes
export type AnyRoute = RouteDef<any>;

export const route = <Q = Record<string, never>>(def: RouteDef<Q>): AnyRoute => def as AnyRoute;
