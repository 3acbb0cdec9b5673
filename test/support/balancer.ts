import { get } from 'node:http';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/** One backend: where to forward, and the HTTP port whose `GET /readyz` says whether it is in rotation. */
export interface Backend {
  port: number;
  readyzPort: number;
}

/**
 * A tiny TCP load balancer for tests, on 127.0.0.1 (ephemeral port): each new connection goes to the
 * first backend in the list whose `/readyz` answered 200 at the last poll (every `pollMs`); if that
 * backend refuses the connection, the next ready one is tried. Bytes pass through untouched, so it
 * carries HTTP/1.1 and HTTP/2 (gRPC) alike. A connection stays on its backend until either side
 * closes it; the client then reconnects through the balancer, as behind a real one.
 */
export const startBalancer = async (backends: Backend[], { pollMs = 100 } = {}) => {
  const ready = backends.map(() => false);
  /** Connections forwarded to each backend, in list order. */
  const forwarded = backends.map(() => 0);
  const sockets = new Set<Socket>();
  let closed = false;

  const probe = (b: Backend) =>
    new Promise<boolean>((resolve) => {
      const req = get({ host: '127.0.0.1', port: b.readyzPort, path: '/readyz', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.setTimeout(1000, () => req.destroy());
      req.on('error', () => resolve(false));
    });
  const poll = async () => {
    const states = await Promise.all(backends.map(probe));
    states.forEach((s, i) => {
      ready[i] = s;
    });
  };
  await poll();
  let timer: NodeJS.Timeout;
  const schedule = () => {
    timer = setTimeout(() => void poll().then(() => !closed && schedule()), pollMs);
  };
  schedule();

  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  /** Connects `client` to the first ready backend from `from` on that accepts; else drops it. */
  const forward = (client: Socket, from: number) => {
    const i = ready.findIndex((r, j) => r && j >= from);
    if (i < 0 || client.destroyed) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: backends[i]!.port });
    track(upstream);
    const refused = () => forward(client, i + 1);
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      forwarded[i]!++;
      client.pipe(upstream).pipe(client);
      // Either side gone: the other goes too, after what is buffered for it (on a reset, at once).
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.on('error', () => b.destroy());
        a.on('close', (hadError) => (hadError ? b.destroy() : b.end()));
      }
      client.resume();
    });
  };
  const server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on('error', () => {});
    forward(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    /** Which backends were ready at the last poll. */
    ready: () => [...ready],
    /** How many connections went to each backend so far. */
    forwarded: () => [...forwarded],
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        clearTimeout(timer);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};

export type Balancer = Awaited<ReturnType<typeof startBalancer>>;
