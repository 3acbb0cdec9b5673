import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import type { AgentToken } from '../types.js';
import { nameText, parseOrThrow } from '../validation.js';
import type { AgentStore } from './agent-store.js';

const agentTokenName = nameText(200);

/** A new region-scoped agent token: `lat.` + 256 random bits, shown once, stored as a hash. */
export const createAgentToken = async (
  store: AgentStore,
  regions: readonly string[],
  input: { region: string; name?: string },
  now: Date,
): Promise<{ record: AgentToken; value: string }> => {
  if (!regions.includes(input.region)) {
    throw new AppError('validation_failed', 'The request has invalid fields.', [
      { field: 'region', message: `must be one of: ${regions.join(', ')}` },
    ]);
  }
  const name =
    input.name === undefined ? `${input.region} agent` : parseOrThrow(agentTokenName, input.name, 'name');
  const value = randomToken('lat.');
  const record: AgentToken = {
    id: newId(),
    region: input.region,
    name,
    token_hash: hashSecret(value),
    created_at: now,
    revoked_at: null,
  };
  await store.insertAgentToken(record);
  return { record, value };
};

/** The token behind `Authorization: Bearer …`, or an unauthorized error. Several tokens may be live (rotation with overlap). */
export const authenticateAgent = async (
  store: AgentStore,
  authorization: string | null,
): Promise<AgentToken> => {
  const value = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!value) throw new AppError('unauthorized', 'Send the agent token as Authorization: Bearer <token>.');
  const hash = hashSecret(value);
  const token = await store.findAgentTokenByHash(hash);
  if (!token || !digestsEqual(token.token_hash, hash) || token.revoked_at) {
    throw new AppError('unauthorized', 'The agent token is not valid.');
  }
  return token;
};
