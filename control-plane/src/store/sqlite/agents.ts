import type { AgentSession, AgentStore } from '../../domain/agents/agent-store.js';
import type { AgentToken } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { agentSessions, agentTokens, insertSql, toRow } from './tables.js';

/** Agent tokens and sessions in SQLite. Registering reads the old epoch and replaces it in one IMMEDIATE transaction. */
export const sqliteAgents = ({ st, one, many, immediate }: SqliteContext): AgentStore => {
  const getSession = (instanceId: string) =>
    one<AgentSession>(agentSessions, 'SELECT * FROM agent_sessions WHERE instance_id = ?', instanceId);
  return {
    async insertAgentToken(token) {
      st(insertSql(agentTokens)).run(toRow(agentTokens, token));
    },
    async findAgentTokenByHash(tokenHash) {
      return one<AgentToken>(agentTokens, 'SELECT * FROM agent_tokens WHERE token_hash = ?', tokenHash);
    },
    async listAgentTokens() {
      return many<AgentToken>(agentTokens, 'SELECT * FROM agent_tokens ORDER BY created_at, id');
    },
    async revokeAgentToken(id, at) {
      return (
        st('UPDATE agent_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at.getTime(), id)
          .changes === 1
      );
    },
    async registerAgent(input) {
      return immediate(() => {
        const prev = getSession(input.instance_id);
        const session: AgentSession = {
          ...input,
          epoch: (prev?.epoch ?? 0) + 1,
          last_result_at: null,
          health: null,
        };
        st(
          `${insertSql(agentSessions)} ON CONFLICT (instance_id) DO UPDATE SET ${Object.keys(
            agentSessions.columns,
          )
            .filter((c) => c !== 'instance_id')
            .map((c) => `${c} = excluded.${c}`)
            .join(', ')}`,
        ).run(toRow(agentSessions, session));
        return session;
      });
    },
    async getAgentSession(instanceId) {
      return getSession(instanceId);
    },
    async touchAgentSession(instanceId, sessionId, at, update = {}) {
      const r = st(
        `UPDATE agent_sessions SET last_seen_at = @at,
           health = coalesce(@health, health),
           last_result_at = coalesce(@results_at, last_result_at)
         WHERE instance_id = @instance_id AND session_id = @session_id`,
      ).run({
        at: at.getTime(),
        health: update.health ? JSON.stringify(update.health) : null,
        results_at: update.resultsAt ? update.resultsAt.getTime() : null,
        instance_id: instanceId,
        session_id: sessionId,
      });
      return r.changes === 1;
    },
    async listAgentSessions(region) {
      return region === undefined
        ? many<AgentSession>(agentSessions, 'SELECT * FROM agent_sessions ORDER BY region, instance_id')
        : many<AgentSession>(
            agentSessions,
            'SELECT * FROM agent_sessions WHERE region = ? ORDER BY instance_id',
            region,
          );
    },
  };
};
