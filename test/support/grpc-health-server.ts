import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { Pem } from './certs.js';

/** What the server says about each service ('' = the server as a whole); absent = NOT_FOUND, as the standard service does. */
export type Statuses = Map<string, 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN'>;

const definition = loadSync(fileURLToPath(new URL('./grpc-health.proto', import.meta.url)), {
  enums: String,
  defaults: true,
});
type Loaded = { grpc: { health: { v1: { Health: { service: grpc.ServiceDefinition } } } } };
const health = (grpc.loadPackageDefinition(definition) as unknown as Loaded).grpc.health.v1.Health.service;

/**
 * A real gRPC server (@grpc/grpc-js) with the standard health service on loopback, port 0; plain or
 * TLS with `cert`. `statuses` can be changed while it runs; `health: false` leaves the service out.
 */
export const startGrpcHealthServer = async (
  opts: { cert?: Pem; statuses?: Statuses; health?: false } = {},
) => {
  const statuses: Statuses = opts.statuses ?? new Map([['', 'SERVING']]);
  const server = new grpc.Server();
  if (opts.health !== false)
    server.addService(health, {
      Check(call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
        const status = statuses.get(call.request.service);
        if (!status)
          return callback({
            code: grpc.status.NOT_FOUND,
            details: `unknown service ${call.request.service}`,
          });
        callback(null, { status });
      },
    });
  const credentials = opts.cert
    ? grpc.ServerCredentials.createSsl(null, [
        { cert_chain: Buffer.from(opts.cert.cert), private_key: Buffer.from(opts.cert.key) },
      ])
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port,
    statuses,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
};
