import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { addressRange } from '@lookout/shared';

/**
 * The proxy Chromium's every request goes through (docs/scripted-checks.md, "Chromium and its
 * network"): plain HTTP forwarded, everything else (https, wss) tunnelled with CONNECT. Each target is
 * resolved here, every address it resolves to is checked with the address guard every check uses
 * (shared/src/address-guard.ts) when the agent blocks private targets, and the connection goes to the
 * address checked, never to a second lookup: no DNS rebinding. A refused request gets no answer
 * Chromium could take for the site's own (CONNECT: 403, which Chromium shows as a failed tunnel; plain
 * HTTP: the socket closed, a failed request); `failure(host, port)` tells the run's report why.
 */
export interface GuardProxyOptions {
  /** The agent's `block_private_targets`: refuse any target that is, or resolves to, a non-public address. */
  blockPrivate: boolean;
  /**
   * A private address and port let through all the same (tests' local sites on loopback). Asked
   * after the lookup, with the address that will be connected to.
   */
  allow?: (address: string, port: number) => boolean;
  /** Client connections open at once (Chromium's, each with at most one upstream socket); beyond, refused. */
  maxConnections?: number;
  /** An idle tunnel or exchange is closed after this long. */
  idleMs?: number;
}

export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server. */
  readonly url: string;
  readonly port: number;
  /** Why the last connection to host:port failed here (refused by the guard, or the upstream's error), if it did lately. */
  failure(host: string, port: number): string | undefined;
  /** Requests refused by the guard since start. */
  readonly refused: number;
  close(): Promise<void>;
}

const FAILURES_KEPT = 256;
const FAILURE_TTL_MS = 60_000;
/** Hop-by-hop and proxy headers, not forwarded (RFC 9110 section 7.6.1). */
const HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'upgrade']);

export class GuardRefusal extends Error {}

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();
const keyOf = (host: string, port: number) => `${bare(host)}:${port}`;

export const startGuardProxy = async (opts: GuardProxyOptions): Promise<GuardProxy> => {
  const idleMs = opts.idleMs ?? 60_000;
  const failures = new Map<string, { reason: string; at: number }>();
  let refused = 0;
  let selfPort = 0;
  const tunnels = new Set<Socket>();

  const noteFailure = (host: string, port: number, reason: string) => {
    const key = keyOf(host, port);
    failures.delete(key);
    failures.set(key, { reason, at: Date.now() });
    if (failures.size > FAILURES_KEPT) failures.delete(failures.keys().next().value as string);
  };

  /** The one address to connect to, after the guard; throws GuardRefusal with the guard's reason. */
  /** Names RFC 6761 keeps for loopback. */
  const LOCALHOST = /^(?:[a-z0-9-]+\.)*localhost\.?$/i;
  const resolveChecked = async (host: string, port: number): Promise<string> => {
    const name = bare(host);
    if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new GuardRefusal(`bad port ${port}`);
    // `localhost` and `*.localhost` are the loopback address, as Chromium itself resolves them (RFC 6761):
    // a page of `http://app.localhost:3000` opens through the proxy as it would without one.
    const addresses = isIP(name)
      ? [name]
      : LOCALHOST.test(name)
        ? ['127.0.0.1']
        : (await lookup(name, { all: true })).map((a) => a.address);
    if (addresses.length === 0) throw new Error(`${name} has no address`);
    for (const address of addresses) {
      const loopbackSelf = addressRange(address) === 'loopback' || address === '::1';
      if (loopbackSelf && port === selfPort)
        throw new GuardRefusal('the agent’s own proxy is not a destination');
      if (!opts.blockPrivate || opts.allow?.(address, port)) continue;
      const range = addressRange(address);
      if (range !== undefined && range !== 'public') {
        throw new GuardRefusal(`refused by the agent’s address guard: ${name} is not an allowed destination`);
      }
    }
    return addresses[0]!;
  };

  const failed = (host: string, port: number, e: unknown) => {
    const reason = e instanceof Error ? e.message : String(e);
    if (e instanceof GuardRefusal) refused++;
    noteFailure(host, port, reason);
    return reason;
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(target.port || 80);
    let address: string;
    try {
      address = await resolveChecked(target.hostname, port);
    } catch (e) {
      failed(target.hostname, port, e);
      req.socket.destroy();
      return;
    }
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (!HOP.has(req.rawHeaders[i]!.toLowerCase()))
        headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const upstream = request({
      host: address,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      setHost: false,
      agent: false,
      timeout: idleMs,
    });
    upstream.on('response', (up) => {
      failures.delete(keyOf(target.hostname, port));
      const back: string[] = [];
      for (let i = 0; i < up.rawHeaders.length; i += 2)
        if (!HOP.has(up.rawHeaders[i]!.toLowerCase())) back.push(up.rawHeaders[i]!, up.rawHeaders[i + 1]!);
      res.writeHead(up.statusCode ?? 502, up.statusMessage, back);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', (e) => {
      failed(target.hostname, port, e);
      req.socket.destroy();
    });
    req.pipe(upstream);
  };

  const tunnel = async (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => {});
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const host = m[1]!;
    const port = Number(m[2]);
    let address: string;
    try {
      address = await resolveChecked(host, port);
    } catch (e) {
      failed(host, port, e);
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect({ host: address, port });
    upstream.setTimeout(idleMs, () => upstream.destroy());
    client.setTimeout(idleMs, () => client.destroy());
    let open = false;
    tunnels.add(client);
    client.on('close', () => tunnels.delete(client));
    upstream.on('connect', () => {
      open = true;
      failures.delete(keyOf(host, port));
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (e) => {
      failed(host, port, e);
      if (!open) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };

  const server = createServer({ requestTimeout: idleMs, headersTimeout: 10_000 }, (req, res) => {
    res.on('error', () => {});
    void forward(req, res);
  });
  server.maxConnections = opts.maxConnections ?? 256;
  server.on('connect', (req, socket, head) => void tunnel(req, socket as Socket, head));
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  selfPort = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${selfPort}`,
    port: selfPort,
    failure(host, port) {
      const f = failures.get(keyOf(host, port));
      return f && Date.now() - f.at < FAILURE_TTL_MS ? f.reason : undefined;
    },
    get refused() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
      }),
  };
};
