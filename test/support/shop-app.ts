import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny shop for multi-step checks, on 127.0.0.1 port 0: `POST /login` `{"user","password"}` →
 * `{"token"}` (401 when `password` is set and another is sent), `POST /orders` with `Authorization:
 * Bearer <token>` → 201 `{"id"}` and `Location: /orders/<id>`, `GET /orders/:id` (the same header) →
 * `{"id","status"}`, `POST /pay` → `{"paid":true}`, or 502 while `failing`; `POST /echo` answers
 * what it was sent; `GET /big?bytes=N` N bytes; `GET /endless` a body without end; `GET /slow` never answers.
 */
export interface ShopApp {
  url: string;
  port: number;
  /** /pay answers 502 while true. */
  failing: boolean;
  /** The password /login takes (any when null). */
  password: string | null;
  /** Requests served, by "METHOD /path". */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (s += d));
    req.on('end', () => resolve(s));
  });

export const startShopApp = async (): Promise<ShopApp> => {
  const tokens = new Set<string>();
  const orders = new Map<string, { id: string; status: string }>();
  let n = 0;
  const slow = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    const key = `${req.method} ${url.pathname.replace(/^\/orders\/.+/, '/orders/:id')}`;
    app.hits.set(key, (app.hits.get(key) ?? 0) + 1);
    const body = await bodyOf(req);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    const signedIn = () => tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (key === 'POST /login') {
      let sent: { password?: string } = {};
      try {
        sent = JSON.parse(body);
      } catch {
        return json(400, { error: 'not JSON' });
      }
      if (app.password !== null && sent.password !== app.password)
        return json(401, { error: 'wrong password' });
      const token = `tok-${++n}-${Math.random().toString(36).slice(2, 10)}`;
      tokens.add(token);
      return json(200, { token });
    }
    if (key === 'POST /orders') {
      if (!signedIn()) return json(401, { error: 'sign in first' });
      const id = String(++n);
      orders.set(id, { id, status: 'created' });
      return json(201, { id }, { location: `/orders/${id}` });
    }
    if (key === 'GET /orders/:id') {
      if (!signedIn()) return json(401, { error: 'sign in first' });
      const order = orders.get(url.pathname.slice('/orders/'.length));
      return order ? json(200, order) : json(404, { error: 'no such order' });
    }
    if (key === 'POST /pay')
      return app.failing ? json(502, { error: 'bad gateway' }) : json(200, { paid: true });
    if (key === 'POST /echo') {
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'text/plain' });
      return res.end(body);
    }
    if (key === 'GET /big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(Buffer.alloc(Number(url.searchParams.get('bytes') ?? 0), 'a'));
    }
    if (key === 'GET /endless') {
      // A body without end, as fast as the client reads it.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'b');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      slow.add(res);
      return more();
    }
    if (key === 'GET /slow') {
      slow.add(res);
      return;
    }
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const app: ShopApp = {
    url: `http://127.0.0.1:${port}`,
    port,
    failing: false,
    password: null,
    hits: new Map(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of slow) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return app;
};
