import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, type Logger, systemClock } from '@lookout/shared';
import type { Config } from '../config.js';
import { createPingBatcher } from '../domain/heartbeats/ping-batcher.js';
import { createPingKeyCache } from '../domain/heartbeats/ping-key-cache.js';
import type { MonitorSlots } from '../domain/monitors/monitor-slots.js';
import { loadStatusView } from '../domain/status-pages/public-view.js';
import { createViewCache } from '../domain/status-pages/view-cache.js';
import { createApp } from '../http/app.js';
import { ClosingResponse } from '../http/closing-response.js';
import { createPingEndpoint } from '../http/ping-endpoint.js';
import { createPublicStatus } from '../http/status-public/serve.js';
import { workspaceBaseUrl } from '../public-url.js';
import { startRpcServer } from '../rpc/rpc-server.js';
import type { Store } from '../store/port.js';
import { capConnections } from './connection-cap.js';
import { startJobs } from './jobs.js';
import { wire } from './wiring.js';

export interface ControlPlane {
  url: string;
  port: number;
  /** Where agents connect (gRPC/Connect over HTTP/2). */
  rpcUrl: string;
  rpcPort: number;
  server: Server;
  /** Stops accepting, lets in-flight requests finish, writes queued pings. Does not close the store. */
  stop(): Promise<void>;
}

/**
 * Starts the HTTP API and the agents' RPC listener on the configured addresses, and the background
 * jobs. The store is the caller's (opened and closed there).
 */
export const startControlPlane = async (deps: {
  config: Config;
  store: Store;
  logger: Logger;
  clock?: Clock;
  /** The numbers the store gave monitor ids (main.ts), for the catalog and the agent streams to share. */
  monitorSlots?: MonitorSlots;
  /** More for the /healthz body (e.g. the local agents of `npm start`). */
  health?: () => Record<string, unknown>;
}): Promise<ControlPlane> => {
  const { config, logger } = deps;
  const clock = deps.clock ?? systemClock;
  if (config.smtp_host === undefined)
    logger.warn(
      'No mail transport configured (LOOKOUT_SMTP_HOST is not set): alert email fails at once for every workspace without its own SMTP server. Set LOOKOUT_SMTP_HOST, or have each workspace admin set one under Settings → Mail.',
    );
  // The shared services, built once: every route, job and RPC service below is handed what it uses.
  const { store, metrics, catalog, resultCover, ...services } = wire({
    config,
    store: deps.store,
    clock,
    monitorSlots: deps.monitorSlots,
  });
  const pings = createPingBatcher((batch) => store.recordPings(batch), {
    maxBatch: config.ping_batch_max,
    maxQueued: config.ping_queue_max,
  });
  let draining = false;
  // Printed URLs use the public port, else the port actually listened on (known once listening).
  let listenPort = config.http_port;
  const appDeps = {
    store,
    config,
    clock,
    logger: logger.child({ component: 'http' }),
    pings,
    metrics,
    ...services,
    isDraining: () => draining,
    ...(deps.health ? { health: deps.health } : {}),
    workspaceUrl: (subdomain: string) => workspaceBaseUrl(config, subdomain, listenPort),
    // Slug pings' key lookups: one cache for the ping endpoint and the route that regenerates keys.
    pingKeyCache: createPingKeyCache(store),
    // Public status pages: one cache for Koa's routes and the fast path below.
    statusCache: createViewCache({
      now: () => clock.now().getTime(),
      load: (page) => loadStatusView(store, page, clock.now()),
    }),
  };
  const api = createApp(appDeps).callback();
  const ping = createPingEndpoint(appDeps);
  const statusPages = createPublicStatus({ ...appDeps, cache: appDeps.statusCache }).fastPath;
  const server = createServer(
    {
      ServerResponse: ClosingResponse,
      // A connection that does not finish its headers (or sends nothing), or its whole request, in
      // time gets 408 and is closed; node looks for such connections every connectionsCheckingInterval.
      headersTimeout: config.http_headers_timeout_ms,
      requestTimeout: config.http_request_timeout_ms,
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(5_000, Math.floor(config.http_headers_timeout_ms / 4)),
      ),
    },
    (req, res) => {
      if (!ping(req, res) && !statusPages(req, res)) void api(req, res);
    },
  );
  server.keepAliveTimeout = config.http_keep_alive_timeout_ms;
  // A client may half-close its side once its request is sent (curl with a closed stdin, some HTTP
  // libraries). By default node then ends the connection at once, before an answer that takes a
  // moment (a ping waits for its batch to be durable) is written. With its `httpAllowHalfOpen` switch
  // (undocumented; test/e2e/raw-http.test.ts holds it to this) node answers the request it has, then
  // closes the connection.
  Object.assign(server, { httpAllowHalfOpen: true });
  capConnections(server, config.http_max_connections, logger, 'http');
  // This replica's monitors, kept current from the monitor feed: agent streams, ingestion, region
  // health. Loaded before the API answers, so that a run request asked through it (check now) is in
  // the feed after the catalog's starting point and reaches the streams here.
  await catalog.ready();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http_port, config.http_host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  listenPort = port;
  const url = `http://${config.http_host.includes(':') ? `[${config.http_host}]` : config.http_host}:${port}`;
  logger.info({ url }, 'HTTP API listening');
  const catalogLog = logger.child({ component: 'monitor-catalog' });
  catalog.start(config.assignment_poll_ms, (err) =>
    catalogLog.error({ err }, 'reading the monitor feed failed'),
  );
  const rpc = await startRpcServer({
    store,
    box: services.box,
    clock,
    config,
    logger,
    metrics,
    catalog,
    maintenance: resultCover,
    host: config.http_host,
    port: config.rpc_port,
  });
  logger.info({ url: rpc.url }, 'agent RPC listening');
  const jobs = startJobs({
    ...services,
    store,
    clock,
    config,
    logger,
    catalog,
    metrics,
    workspaceUrl: appDeps.workspaceUrl,
  });
  return {
    url,
    port,
    rpcUrl: rpc.url,
    rpcPort: rpc.port,
    server,
    async stop() {
      draining = true;
      jobs.stop();
      catalog.stop();
      await rpc.stop(config.shutdown_grace_ms);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdown_grace_ms);
      await closed;
      clearTimeout(timer);
      await pings.flush();
    },
  };
};
