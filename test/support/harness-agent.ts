import { type Client, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService } from '@lookout/proto';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import type { Harness } from './harness.js';

export interface HarnessAgent {
  client: Client<typeof AgentService>;
  sessionId: string;
}

/**
 * An agent of `region`, registered with the harness's agent service (gRPC on its RPC port) under
 * `instanceId`: the tests report results through it as a real agent does.
 */
export const registerAgent = async (
  h: Harness,
  region: string,
  instanceId: string,
  /** The check types it declares (none: an agent older than the field, which runs the first types). */
  checkTypes: string[] = [],
): Promise<HarnessAgent> => {
  const token = (await createAgentToken(h.store, h.config.regions, { region }, h.clock.now())).value;
  const client = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: h.cp.rpcUrl,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    }),
  );
  const { sessionId } = await client.register({ instanceId, checkTypes });
  return { client, sessionId };
};
