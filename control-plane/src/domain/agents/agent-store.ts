import type { AgentHealth, AgentSession, AgentToken } from '../types.js';

/**
 * Region agents: their tokens and sessions.
 * Adapters: store/sqlite/agents.ts, store/mongo/agents.ts.
 */
export interface AgentStore {
  insertAgentToken(token: AgentToken): Promise<void>;
  findAgentTokenByHash(tokenHash: string): Promise<AgentToken | null>;
  listAgentTokens(): Promise<AgentToken[]>;
  revokeAgentToken(id: string, at: Date): Promise<boolean>;
  /**
   * Opens a new session for an instance, replacing any older one (its epoch grows by one). The older
   * session's stream notices through `getAgentSession` and ends as superseded.
   */
  registerAgent(input: Omit<AgentSession, 'epoch' | 'last_result_at' | 'health'>): Promise<AgentSession>;
  getAgentSession(instanceId: string): Promise<AgentSession | null>;
  /** Marks the session seen (and its health, and whether results arrived); false when the session is no longer current. */
  touchAgentSession(
    instanceId: string,
    sessionId: string,
    at: Date,
    update?: { health?: AgentHealth; resultsAt?: Date },
  ): Promise<boolean>;
  listAgentSessions(region?: string): Promise<AgentSession[]>;
}
