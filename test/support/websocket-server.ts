import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Pem } from './certs.js';

/**
 * A real WebSocket server (`ws`) on loopback, port 0, plain or TLS with `cert`. What it does depends on
 * the path: `/echo` echoes each message; `/hello` sends `greeting` as soon as a client connects;
 * `/silent` sends nothing; `/close-<code>` closes at once with that code and the reason "bye";
 * `/big` sends a 2 MiB message; `/forbidden` refuses the upgrade with HTTP 403; `/redirect` answers
 * it with a redirect to the cloud metadata address. While `state.closeWith` is set, every connection
 * is closed at once with that code.
 */
export const startWebSocketServer = async (opts: { cert?: Pem } = {}) => {
  const state: { greeting: string; closeWith: number | null } = {
    greeting: '{"status":"ok","version":3}',
    closeWith: null,
  };
  const http: Server = opts.cert ? createHttps({ cert: opts.cert.cert, key: opts.cert.key }) : createHttp();
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    if (req.url === '/redirect') {
      socket.end(
        'HTTP/1.1 302 Found\r\nLocation: ws://169.254.169.254/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
      return;
    }
    if (req.url === '/forbidden') {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const path = req.url ?? '/';
      if (state.closeWith !== null) ws.close(state.closeWith, 'bye');
      else if (path === '/echo') ws.on('message', (data, binary) => ws.send(data, { binary }));
      else if (path === '/hello') ws.send(state.greeting);
      else if (path === '/big') ws.send(Buffer.alloc(2 << 20, 0x61));
      else if (path.startsWith('/close-')) ws.close(Number(path.slice(7)), 'bye');
    });
  });
  http.on('request', (_req, res) => res.writeHead(426).end('upgrade required'));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    state,
    url: (path: string, host = '127.0.0.1') => `${opts.cert ? 'wss' : 'ws'}://${host}:${port}${path}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      http.closeAllConnections?.();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
};
