// The HTTP target for the agent benchmark: answers 200 "ok" on 32 ports. Checks use a fresh
// connection each, and every closed connection holds its (address, port) pair in TIME_WAIT for a
// minute; spreading over ports keeps the benchmark from measuring loopback port exhaustion instead of
// the prober (real targets are spread over many addresses anyway). TARGET_JSON_BYTES=N answers a JSON
// document of about N bytes instead (the assertions bench).
import { createServer } from 'node:http';

const size = Number(process.env.TARGET_JSON_BYTES ?? 0);
const items = [];
for (let i = 0; size > 0 && JSON.stringify(items).length < size - 60; i++) {
  items.push({ id: i, name: `service-${i}`, status: i % 7 === 0 ? 'degraded' : 'ok' });
}
const body = size > 0 ? JSON.stringify({ status: 'ok', version: '2.1.0', data: items }) : 'ok';
const headers = size > 0 ? { 'content-type': 'application/json' } : {};

const ports = [];
for (let i = 0; i < 32; i++) {
  const server = createServer(
    size > 0 ? (_req, res) => res.writeHead(200, headers).end(body) : (_req, res) => res.end('ok'),
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  ports.push(server.address().port);
}
process.stdout.write(`READY ${ports.join(',')}\n`);
