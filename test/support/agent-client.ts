import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService, CheckResultSchema } from '@lookout/proto';
import type { Config } from '../../control-plane/src/config.js';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import type { Store } from '../../control-plane/src/store/port.js';

/**
 * An agent played by the test over real gRPC (HTTP/2 on loopback): a region token from the store,
 * Register, then ReportResults with the results the test decides. The control plane sees exactly
 * what a real agent would send.
 */
export const grpcAgent = async (opts: {
  store: Store;
  config: Config;
  rpcUrl: string;
  region: string;
  instance: string;
}) => {
  const token = (await createAgentToken(opts.store, opts.config.regions, { region: opts.region }, new Date()))
    .value;
  const client = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: opts.rpcUrl,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    }),
  );
  const { sessionId } = await client.register({ instanceId: opts.instance, hostname: opts.instance });
  return {
    client,
    sessionId,
    /** One check of `monitorId` scheduled at `at`: a refused connection, or a success in 12 ms. */
    async report(monitorId: string, at: Date, ok: boolean) {
      const ms = BigInt(at.getTime());
      return client.reportResults({
        instanceId: opts.instance,
        sessionId,
        results: [
          create(CheckResultSchema, {
            resultId: `${monitorId}:${opts.region}:${at.getTime()}`,
            monitorId,
            monitorVersion: 1n,
            scheduledAtMs: ms,
            startedAtMs: ms,
            ok,
            errorKind: ok ? '' : 'connect',
            errorMessage: ok ? '' : 'connect ECONNREFUSED 127.0.0.1:9',
            responseTimeMs: ok ? 12 : 1,
            statusCode: ok ? 200 : 0,
          }),
        ],
      });
    },
  };
};
