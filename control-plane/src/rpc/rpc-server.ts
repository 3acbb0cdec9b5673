import { constants, createServer, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { AgentService, EncodedReportResultsRequestSchema } from '@lookout/proto';
import { createMonitorCatalog, type MonitorCatalog } from '../domain/monitors/monitor-catalog.js';
import { capConnections } from '../process/connection-cap.js';
import { type AgentServiceDeps, type AgentServiceImpl, createAgentService } from './agent-service.js';
import { createRunNowHub } from './run-now-hub.js';

/** ReportResults as served: its generated name, path and output, the results read as their bytes. */
const reportResultsAsBytes = {
  ...AgentService.method.reportResults,
  input: EncodedReportResultsRequestSchema,
};

/**
 * Largest request message read from an agent (a ReportResults call carries at most 1,000 results,
 * MAX_RESULTS_PER_BATCH in agent-service.ts, 500 in normal flow: well under 1 MiB;
 * a WatchAssignments request listing 100,000 running monitors about 5 MiB). Connect's default is 4 GiB,
 * which lets anyone who can reach the port — before any token is checked — make the process buffer a
 * body far beyond its heap. Beyond this: resource_exhausted.
 */
export const RPC_READ_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The agents' listener: HTTP/2 cleartext (put TLS in front, or terminate it at the balancer), speaking
 * gRPC, gRPC-Web and Connect for the one AgentService. It keeps this replica's monitor catalog current
 * from the monitor feed and hands the feed's run requests to the streams here.
 */
export const startRpcServer = async (
  deps: Omit<AgentServiceDeps, 'shutdown' | 'catalog' | 'runNow'> & {
    host: string;
    port: number;
    /** The replica's catalog when others share it (process/wiring.ts); otherwise one of its own. */
    catalog?: MonitorCatalog;
  },
) => {
  const shutdown = new AbortController();
  const ownCatalog = !deps.catalog;
  const catalog = deps.catalog ?? createMonitorCatalog(deps.store);
  const runNow = createRunNowHub({ now: () => deps.clock.now().getTime() });
  catalog.onRun((r) => {
    if (r.location) {
      runNow.publish({
        monitorId: r.monitor_id,
        location: r.location,
        reason: r.reason === 'test' || r.reason === 'first' ? r.reason : 'confirm',
        requestId: r.request_id ?? r.monitor_id,
      });
    }
  });
  if (ownCatalog) {
    const log = deps.logger.child({ component: 'monitor-catalog' });
    catalog.start(deps.config.assignment_poll_ms, (err) =>
      log.error({ err }, 'reading the monitor feed failed'),
    );
  }
  const handler = connectNodeAdapter({
    readMaxBytes: RPC_READ_MAX_BYTES,
    routes: (router) => {
      const impl = createAgentService({ ...deps, catalog, runNow, shutdown: shutdown.signal });
      // One route per method: ReportResults with its results as bytes (decoded by hand,
      // agent-service.ts), the rest as generated.
      for (const method of AgentService.methods) {
        if (method === AgentService.method.reportResults)
          router.rpc(reportResultsAsBytes, impl.reportResults);
        else
          router.rpc(
            method,
            impl[method.localName as Exclude<keyof AgentServiceImpl, 'reportResults'>] as never,
          );
      }
    },
  });
  const server = createServer(handler);
  // A session without traffic for the idle timeout is destroyed (node does so when no 'timeout'
  // listener is set): a connection that sends nothing, or stops half-way through its preface. A stream
  // idle as long is cancelled, so a session kept busy by pings cannot hold a request open forever.
  // Assignment streams and agents send keep-alives every 15 s, well inside it.
  const idleMs = deps.config.rpc_idle_timeout_ms;
  server.setTimeout(idleMs);
  server.on('stream', (stream) => {
    stream.setTimeout(idleMs, () => stream.close(constants.NGHTTP2_CANCEL));
  });
  capConnections(server, deps.config.rpc_max_connections, deps.logger, 'rpc');
  const sessions = new Set<Http2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://${deps.host.includes(':') ? `[${deps.host}]` : deps.host}:${port}`,
    /** Stops accepting, ends assignment streams cleanly (agents reconnect elsewhere), then closes sessions. */
    async stop(graceMs = 5000) {
      shutdown.abort();
      if (ownCatalog) catalog.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sessions) s.close();
      const timer = setTimeout(() => {
        for (const s of sessions) s.destroy();
      }, graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
};

export type RpcServer = Awaited<ReturnType<typeof startRpcServer>>;
