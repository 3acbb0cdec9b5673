import { createServer, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { AgentService } from '@lookout/proto';
import { type AgentServiceDeps, createAgentService } from './agent-service.js';

/**
 * The agents' listener: HTTP/2 cleartext (put TLS in front, or terminate it at the balancer), speaking
 * gRPC, gRPC-Web and Connect for the one AgentService.
 */
export const startRpcServer = async (
  deps: Omit<AgentServiceDeps, 'shutdown'> & { host: string; port: number },
) => {
  const shutdown = new AbortController();
  const handler = connectNodeAdapter({
    routes: (router) =>
      router.service(AgentService, createAgentService({ ...deps, shutdown: shutdown.signal })),
  });
  const server = createServer(handler);
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
