// The targets of `npm run bench -- streams`, in a process of their own: a @grpc/grpc-js server with the
// health service (SERVING) and a `ws` echo server, each on PORTS ports of 127.0.0.1 (a fresh connection
// per check towards one address:port runs out of ephemeral ports at these rates, as target-server.js
// says). Prints `READY grpc=P,P,… ws=P,P,…`.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { WebSocketServer } from 'ws';

const PORTS = Number(process.env.BENCH_PORTS ?? 16);
const proto = fileURLToPath(new URL('../support/grpc-health.proto', import.meta.url));
const health = grpc.loadPackageDefinition(loadSync(proto, { enums: String, defaults: true })).grpc.health.v1
  .Health.service;

const server = new grpc.Server();
server.addService(health, { Check: (_call, callback) => callback(null, { status: 'SERVING' }) });
const grpcPorts = [];
for (let i = 0; i < PORTS; i++) {
  grpcPorts.push(
    await new Promise((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    ),
  );
}

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
const wsPorts = [];
for (let i = 0; i < PORTS; i++) {
  const http = createServer();
  http.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', (data) => ws.send(data))),
  );
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  wsPorts.push(http.address().port);
}
process.stdout.write(`READY grpc=${grpcPorts.join(',')} ws=${wsPorts.join(',')}\n`);
