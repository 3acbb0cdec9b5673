import type { AgentToken } from '../types.js';

export interface AgentHealth {
  assigned: number;
  in_flight: number;
  queue_depth: number;
  buffered_results: number;
  dropped_results: number;
  schedule_lag_p99_ms: number;
  /**
   * The shortest check interval among the agent's monitors (0: none or not reported, by an older
   * agent), and when the agent first had a monitor that often (the control plane's clock; null when
   * not reported). Results are owed at least once per that interval from then on.
   */
  shortest_interval_seconds?: number;
  results_due_since?: string | null;
}

/** One agent instance's current session. The newest Register of an instance wins (epoch grows). */
export interface AgentSession {
  instance_id: string;
  region: string;
  session_id: string;
  epoch: number;
  hostname: string;
  agent_version: string;
  started_at: Date;
  last_seen_at: Date;
  /** When the agent last reported results: "healthy" means results flow, not merely connected. */
  last_result_at: Date | null;
  health: AgentHealth | null;
  /** The check types it runs, as declared at Register (`declaredCheckTypes`, domain/agents/capabilities.ts). */
  check_types: string[];
}

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
