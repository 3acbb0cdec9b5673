import { FIRST_MONITOR_TYPES } from '@lookout/shared';
import type { Document, Filter } from 'mongodb';
import type { AgentSession, AgentStore } from '../../domain/agents/agent-store.js';
import type { AgentToken } from '../../domain/types.js';
import { type Doc, fromDoc, fromDocs, type IndexDecl, type MongoContext, toDoc } from './db.js';

export const agentIndexes: IndexDecl[] = [
  { on: 'agentTokens', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'agentSessions', key: { region: 1 } },
];

/**
 * A session document is keyed by its instance id. One written before agents declared check types has
 * none: it runs the first protocol's types (its agent's next Register writes what it declares).
 */
const sessionOf = (d: Document): AgentSession => {
  const { _id, ...rest } = d;
  return { check_types: [...FIRST_MONITOR_TYPES], instance_id: _id, ...rest } as AgentSession;
};

/** Agent tokens and sessions: single-document writes, the session's epoch grown by $inc. */
export const mongoAgents = ({ col }: MongoContext): AgentStore => {
  const { agentTokens, agentSessions } = col;
  return {
    async insertAgentToken(token) {
      await agentTokens.insertOne(toDoc(token));
    },
    async findAgentTokenByHash(tokenHash) {
      return fromDoc<AgentToken>(await agentTokens.findOne({ token_hash: tokenHash }));
    },
    async listAgentTokens() {
      return fromDocs<AgentToken>(await agentTokens.find({}).sort({ created_at: 1, _id: 1 }).toArray());
    },
    async revokeAgentToken(id, at) {
      return (
        (await agentTokens.updateOne({ _id: id, revoked_at: null }, { $set: { revoked_at: at } }))
          .modifiedCount === 1
      );
    },
    async registerAgent(input) {
      const { instance_id, ...rest } = input;
      const doc = await agentSessions.findOneAndUpdate(
        { _id: instance_id },
        { $set: { ...rest, last_result_at: null, health: null }, $inc: { epoch: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return sessionOf(doc!);
    },
    async getAgentSession(instanceId) {
      const d = await agentSessions.findOne({ _id: instanceId });
      return d ? sessionOf(d) : null;
    },
    async touchAgentSession(instanceId, sessionId, at, update = {}) {
      const set: Document = { last_seen_at: at };
      if (update.health) set.health = update.health;
      if (update.resultsAt) set.last_result_at = update.resultsAt;
      return (
        (await agentSessions.updateOne({ _id: instanceId, session_id: sessionId }, { $set: set }))
          .matchedCount === 1
      );
    },
    async listAgentSessions(region) {
      const f: Filter<Doc> = region === undefined ? {} : { region };
      return (await agentSessions.find(f).sort({ region: 1, _id: 1 }).toArray()).map(sessionOf);
    },
  };
};
