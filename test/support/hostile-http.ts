// Runs the agent's HTTP exchange (agent/src/probers/http-exchange.ts) against a loopback server that
// answers each case with hostile bytes, and prints one JSON line per case: {"name", "code"} for the
// error the exchange failed with, or {"name", "status"} if it did not fail. Run in a process of its own
// (`node --import tsx`) by http-exchange.test.ts, because the failure it guards against is a parse that
// never returns: in the test's own process that would hang the suite instead of failing it.
import { createServer, type Socket } from 'node:net';
import { exchange } from '../../agent/src/probers/http-exchange.js';
import { loopbackExchange } from './exchange-request.js';

const big = (n: number) => 'x'.repeat(n);
const cases: Record<string, string[]> = {
  'negative content-length': ['HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\nabc'],
  'content-length not a number': ['HTTP/1.1 200 OK\r\ncontent-length: 12abc\r\n\r\nabc'],
  'two different content-lengths': ['HTTP/1.1 200 OK\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\nabcd'],
  'negative chunk size': ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n-1\r\nabc\r\n0\r\n\r\n'],
  'chunk size not hex': ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'],
  // Lines that never end, in pieces, as a slow hostile server would send them.
  'a header line that never ends': ['HTTP/1.1 200 OK\r\nx-long: ', ...Array(40).fill(big(1024))],
  'a chunk size line that never ends': [
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n',
    ...Array(40).fill('1'.repeat(1024)),
  ],
  'headers over the bound': [
    'HTTP/1.1 200 OK\r\n',
    ...Array.from({ length: 40 }, (_, i) => `x-h${i}: ${big(1000)}\r\n`),
    '\r\n',
  ],
  'trailers over the bound': [
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n',
    ...Array.from({ length: 40 }, (_, i) => `x-t${i}: ${big(1000)}\r\n`),
    '\r\n',
  ],
  'endless interim responses': Array(20).fill('HTTP/1.1 100 Continue\r\n\r\n'),
  'not http': ['SSH-2.0-OpenSSH_9.2\r\n'],
};

const server = createServer((socket: Socket) => {
  let head = '';
  socket.on('data', async (d) => {
    head += d.toString('latin1');
    if (!head.includes('\r\n\r\n')) return;
    const name = decodeURIComponent(head.split(' ')[1]!.slice(1));
    for (const piece of cases[name] ?? ['HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n']) {
      if (socket.destroyed) return;
      socket.write(piece);
      await new Promise((r) => setImmediate(r));
    }
    // Left open: a well-behaved end (a close) must not be what ends the exchange.
  });
  socket.on('error', () => {});
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as { port: number };

for (const name of Object.keys(cases)) {
  const path = `/${encodeURIComponent(name)}`;
  try {
    const r = await exchange(loopbackExchange(port, path), () => {});
    process.stdout.write(`${JSON.stringify({ name, status: r.status, body: r.body.slice(0, 20) })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ name, code: (e as { code?: string }).code ?? String(e) })}\n`);
  }
}
server.close();
process.exit(0);
