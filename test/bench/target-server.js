// The HTTP target for the agent benchmark: answers 200 "ok" on 32 ports. Checks use a fresh
// connection each, and every closed connection holds its (address, port) pair in TIME_WAIT for a
// minute; spreading over ports keeps the benchmark from measuring loopback port exhaustion instead of
// the prober (real targets are spread over many addresses anyway).
import { createServer } from 'node:http';

const ports = [];
for (let i = 0; i < 32; i++) {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  ports.push(server.address().port);
}
process.stdout.write(`READY ${ports.join(',')}\n`);
