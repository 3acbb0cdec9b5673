import type { Router } from '@koa/router';
import { AppError, digestsEqual, hashSecret } from '@lookout/shared';
import type { Middleware } from 'koa';
import type { Config } from '../config.js';
import { configJsonSchema, SCHEMA_FILE_NAME } from '../config-as-code/config-file.js';
import type { Metrics } from '../process/metrics.js';
import { buildOpenApi } from './openapi.js';
import type { AnyRoute, ApiState } from './route.js';

export const API_PREFIX = '/api/v1';

/**
 * The service's own endpoints beside the API's routes: liveness and readiness, the metrics scrape
 * (behind its token when one is set), the config file's JSON Schema, Caddy's on-demand TLS question and
 * the OpenAPI document (for the workspace's own URL, or a template naming the workspace).
 */
export const serviceEndpoints = (
  router: Router<ApiState>,
  deps: {
    store: { readonly kind: string; ping(): Promise<void> };
    config: Pick<Config, 'metrics_token'>;
    metrics?: Metrics | undefined;
    isDraining?: (() => boolean) | undefined;
    health?: (() => Record<string, unknown>) | undefined;
    workspaceUrl(subdomain: string): string;
    routes: AnyRoute[];
    tlsAsk: Middleware<ApiState>;
  },
) => {
  const { store, config, routes, tlsAsk } = deps;
  router.get('/healthz', (ctx) => {
    // Liveness: 200 while the process serves; the detail (local agents) is for people reading it.
    ctx.body = { status: 'ok', ...deps.health?.() };
  });
  router.get('/readyz', async (ctx) => {
    if (deps.isDraining?.()) throw new AppError('unavailable', 'Shutting down.');
    try {
      await store.ping();
    } catch (err) {
      ctx.state.log.warn({ err }, 'store unreachable');
      throw new AppError('unavailable', 'The store is unreachable.');
    }
    ctx.body = { status: 'ready', store: store.kind };
  });
  router.get('/metrics', async (ctx) => {
    const token = config.metrics_token;
    const given = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!deps.metrics) throw new AppError('not_found', 'No metrics here.');
    if (token && (!given || !digestsEqual(hashSecret(given), hashSecret(token)))) {
      throw new AppError('unauthorized', 'GET /metrics needs the metrics token (Authorization: Bearer).');
    }
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
  // The JSON Schema of `lookout export` files, which name it on their first line (for editors).
  router.get(`${API_PREFIX}/${SCHEMA_FILE_NAME}`, (ctx) => {
    ctx.body = configJsonSchema();
  });
  // Caddy's on-demand TLS asks before it gets a certificate for a name (deploy/caddy/Caddyfile).
  router.get('/_tls/ask', tlsAsk);
  router.get(`${API_PREFIX}/openapi.json`, (ctx) => {
    // The workspace's own URL; without one, a template with the workspace as a server variable.
    const ws = ctx.state.workspace;
    ctx.body = buildOpenApi(
      routes,
      ws
        ? { url: `${deps.workspaceUrl(ws.subdomain)}${API_PREFIX}` }
        : {
            url: `${deps.workspaceUrl('{workspace}')}${API_PREFIX}`,
            variables: { workspace: { default: 'demo', description: 'Your workspace’s subdomain.' } },
          },
    );
  });
};
