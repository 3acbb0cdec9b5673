import { createServer, type Server } from 'node:http';

/**
 * A small shop the browser-check tests walk: a home page, a sign-in form and an order form. Set
 * `broken` and placing an order fails on purpose: the page logs a console error, its API call
 * answers 503 and the confirmation never shows.
 */
export interface JourneySite {
  url: string;
  port: number;
  broken: boolean;
  /** Requests served, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body><main>${body}</main></body></html>`;

export const startJourneySite = async (): Promise<JourneySite> => {
  const site = { broken: false, hits: new Map<string, number>() } as JourneySite;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    site.hits.set(url.pathname, (site.hits.get(url.pathname) ?? 0) + 1);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (req.method === 'POST' && url.pathname === '/login') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('password') === 'right-password') {
          res.writeHead(303, { location: '/account', 'set-cookie': 'session=s1; Path=/; HttpOnly' });
          res.end();
        } else html(401, page('Sign in', '<h1>Sign in</h1><p role="alert">Wrong email or password</p>'));
      });
      return;
    }
    if (url.pathname === '/api/pay') {
      res.writeHead(site.broken ? 503 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: !site.broken }));
      return;
    }
    switch (url.pathname) {
      case '/favicon.ico':
        res.writeHead(204).end();
        return;
      case '/':
        return html(
          200,
          page(
            'Shop',
            '<h1>The shop</h1><p style="font-size:40px">Everything you need, delivered.</p><a href="/login">Sign in</a>',
          ),
        );
      case '/login':
        return html(
          200,
          page(
            'Sign in',
            '<h1>Sign in</h1><form method="post" action="/login">' +
              '<label>Email <input name="email" type="email"></label>' +
              '<label>Password <input name="password" type="password"></label>' +
              '<button type="submit">Sign in</button></form>',
          ),
        );
      case '/account':
        return html(200, page('Your account', '<h1>Welcome back</h1><a href="/order">Order form</a>'));
      case '/order':
        return html(
          200,
          page(
            'Order',
            '<h1>Order</h1><label>Quantity <input name="qty" type="number" value="1"></label>' +
              '<button id="pay">Place order</button><p id="status"></p>' +
              `<script>document.getElementById('pay').onclick = async () => {
                const r = await fetch('/api/pay?card=4111', { method: 'POST' });
                if (!r.ok) { console.error('payment failed: ' + r.status); return; }
                document.getElementById('status').textContent = 'Order placed';
              };</script>`,
          ),
        );
      default:
        return html(404, page('Not found', '<h1>Not found</h1>'));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  site.port = port;
  site.url = `http://127.0.0.1:${port}/`;
  site.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return site;
};
