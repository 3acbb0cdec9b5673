import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '@lookout/shared';
import Database from 'better-sqlite3';
import type { AlertKey, AlertQuery } from '../../domain/alert-store.js';
import type { MonitorQuery } from '../../domain/monitor-store.js';
import type {
  Actor,
  AgentSession,
  AgentToken,
  Alert,
  ApiKey,
  CheckResultRecord,
  EscalationPolicy,
  Heartbeat,
  HeartbeatState,
  Monitor,
  MonitorChange,
  MonitorLocationState,
  Page,
  PageQuery,
  Ping,
  User,
  Workspace,
} from '../../domain/types.js';
import { decodeCursor, encodeCursor, type PageOrder, toPage } from '../cursor.js';
import { openKey } from '../open-key.js';
import { type PingTouch, pingTouches } from '../ping-touches.js';
import type { Store } from '../port.js';
import { sqliteInbound, touchHeartbeatSql } from './inbound.js';
import { sqliteMembers } from './members.js';
import { migrations } from './migrations.js';
import { sqliteMonitorStatus } from './monitor-status.js';
import { createPingWriter, type PingWriter } from './ping-writer.js';
import { sqliteRouting } from './routing.js';
import { sqliteSessions } from './sessions.js';
import {
  agentSessions,
  agentTokens,
  alerts,
  apiKeys,
  fromRow,
  heartbeats,
  insertSql,
  monitorStates,
  monitors,
  pings,
  policies,
  results,
  type Table,
  toRow,
  updateSql,
  users,
  workspaces,
} from './tables.js';

type Row = Record<string, unknown>;

export interface SqliteOptions {
  /** Path of the database file, or ':memory:'. */
  path: string;
  busyTimeoutMs?: number;
}

const isUniqueViolation = (e: unknown) =>
  e instanceof Error && 'code' in e && (e as { code: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so a committed write
 * survives a crash or power loss. Every read-then-write runs in an IMMEDIATE transaction, which
 * takes the file's write lock first: two processes on one file serialize instead of racing.
 */
export const createSqliteStore = (opts: SqliteOptions): Store => {
  if (opts.path !== ':memory:') mkdirSync(dirname(opts.path), { recursive: true });
  const db = new Database(opts.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  db.pragma('foreign_keys = ON');
  // 64 MiB of page cache (the default is 2 MiB): the result indexes take random inserts, and once they
  // outgrow the cache every insert pays for page reads. Memory is only used as pages are touched.
  db.pragma('cache_size = -65536');
  // Checkpoint the WAL every ~40 MiB instead of ~4 MiB: hot pages (the newest entries of each
  // monitor's results, the location states) are rewritten by every batch, and a longer interval
  // copies each of them back into the database once per checkpoint instead of once per commit.
  db.pragma('wal_autocheckpoint = 10000');

  /** Prepared statements, cached by SQL text (prepared on first use, after migrations). */
  const statements = new Map<string, Database.Statement>();
  const st = (sql: string): Database.Statement => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  const one = <T>(t: Table, sql: string, ...params: unknown[]): T | null => {
    const row = st(sql).get(...params) as Row | undefined;
    return row ? fromRow<T>(t, row) : null;
  };
  const many = <T>(t: Table, sql: string, ...params: unknown[]): T[] =>
    (st(sql).all(...params) as Row[]).map((r) => fromRow<T>(t, r));
  const immediate = <T>(fn: () => T): T => db.transaction(fn).immediate();
  /** Appends a 'changed' entry to the monitor feed; call inside the transaction that changed it. */
  const monitorChanged = (monitorId: string) =>
    st(`INSERT INTO monitor_changes (monitor_id, kind, at) VALUES (?, 'changed', ?)`).run(
      monitorId,
      Date.now(),
    );

  /** newest-first keyset page over `t` with extra WHERE clauses. */
  const page = <T extends { id: string }>(
    t: Table,
    where: string[],
    params: unknown[],
    q: PageQuery,
    /** The time column the list is ordered by (a date column). */
    by: PageOrder = 'created_at',
  ): Page<T> => {
    const cur = decodeCursor(q.cursor);
    const w = [...where];
    const p = [...params];
    if (cur) {
      w.push(`(${by} < ? OR (${by} = ? AND id < ?))`);
      p.push(cur.t, cur.t, cur.id);
    }
    const sql = `SELECT * FROM ${t.name} WHERE ${w.join(' AND ')} ORDER BY ${by} DESC, id DESC LIMIT ?`;
    return toPage(
      many<T>(t, sql, ...p, q.limit + 1),
      q.limit,
      (r) => (r as unknown as Record<typeof by, Date>)[by],
    );
  };

  /** Positional, in `pings` column order; a ping for a heartbeat deleted meanwhile is dropped, not kept as an orphan. */
  const pingColumns = Object.keys(pings.columns);
  const insertPingSql = `INSERT INTO pings (${pingColumns.join(', ')}) SELECT ${pingColumns.map(() => '?').join(', ')}
     WHERE EXISTS (SELECT 1 FROM heartbeats WHERE id = ?)`;
  /** The insert's parameters: the columns, then the heartbeat id again for the EXISTS. */
  const pingParams = (p: Ping) => [...Object.values(toRow(pings, p)), p.heartbeat_id];
  const pingWidth = pingColumns.length + 1;
  /** What a ping does to its heartbeat: see touchHeartbeatSql (inbound.ts). */
  const inMemory = opts.path === ':memory:';
  let pingWriter: PingWriter | null = null;
  /** For ':memory:' databases, which a worker cannot share. */
  const recordPingsInThread = db.transaction((rows: unknown[], touches: PingTouch[]) => {
    const insert = st(insertPingSql);
    const touch = st(touchHeartbeatSql);
    for (let i = 0; i < rows.length; i += pingWidth) insert.run(rows.slice(i, i + pingWidth));
    for (const t of touches) touch.run(t);
  });

  const store: Store = {
    kind: 'sqlite',
    ...sqliteRouting({ st, one, many, immediate, page }),
    ...sqliteInbound({ st, one, many, immediate, page }),
    ...sqliteSessions({ st, one, many, immediate, page }),
    ...sqliteMembers({ st, one, many, immediate, page }),
    ...sqliteMonitorStatus({ st, one, many, immediate, page }),

    async init() {
      db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER)',
      );
      immediate(() => {
        const done =
          (st('SELECT max(version) v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
        migrations.forEach((sqls, i) => {
          const version = i + 1;
          if (version <= done) return;
          for (const sql of sqls) db.exec(sql);
          st('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
        });
      });
    },

    async ping() {
      st('SELECT 1').get();
    },

    async close() {
      await pingWriter?.close();
      pingWriter = null;
      if (db.open) db.close();
    },

    async createWorkspace({ workspace, admin, defaultPolicy }) {
      try {
        immediate(() => {
          st(insertSql(workspaces)).run(toRow(workspaces, workspace));
          st(insertSql(users)).run(toRow(users, admin));
          st(insertSql(policies)).run(toRow(policies, defaultPolicy));
        });
      } catch (e) {
        if (isUniqueViolation(e))
          throw new AppError('conflict', `Subdomain "${workspace.subdomain}" is taken.`);
        throw e;
      }
    },
    async getWorkspace(id) {
      return one<Workspace>(workspaces, 'SELECT * FROM workspaces WHERE id = ?', id);
    },
    async getWorkspaceBySubdomain(subdomain) {
      return one<Workspace>(workspaces, 'SELECT * FROM workspaces WHERE subdomain = ?', subdomain);
    },
    async listWorkspaces() {
      return many<Workspace>(workspaces, 'SELECT * FROM workspaces ORDER BY created_at, id');
    },

    async createUser(user) {
      try {
        st(insertSql(users)).run(toRow(users, user));
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('conflict', `A user with email ${user.email} exists.`);
        throw e;
      }
    },
    async getUser(workspaceId, id) {
      return one<User>(users, 'SELECT * FROM users WHERE workspace_id = ? AND id = ?', workspaceId, id);
    },
    async getUserByEmail(workspaceId, email) {
      return one<User>(users, 'SELECT * FROM users WHERE workspace_id = ? AND email = ?', workspaceId, email);
    },
    async listUsers(workspaceId, q) {
      return page<User>(users, ['workspace_id = ?'], [workspaceId], q);
    },

    async setUserRole(workspaceId, id, role) {
      return (
        st('UPDATE users SET role = ? WHERE workspace_id = ? AND id = ?').run(role, workspaceId, id)
          .changes === 1
      );
    },

    async insertApiKey(key, { maxActive, now }) {
      return immediate(() => {
        const { n } = db
          .prepare(
            `SELECT count(*) n FROM api_keys WHERE workspace_id = ? AND user_id = ? AND kind = 'named'
               AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
          )
          .get(key.workspace_id, key.user_id, now.getTime()) as { n: number };
        if (n >= maxActive) return 'limit_reached' as const;
        st(insertSql(apiKeys)).run(toRow(apiKeys, key));
        return 'inserted' as const;
      });
    },
    async replaceLegacyKey(key, now) {
      immediate(() => {
        st(
          `UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND kind = 'legacy' AND revoked_at IS NULL`,
        ).run(now.getTime(), key.workspace_id, key.user_id);
        st(insertSql(apiKeys)).run(toRow(apiKeys, key));
      });
    },
    async findApiKeyByHash(keyHash) {
      return one<ApiKey>(apiKeys, 'SELECT * FROM api_keys WHERE key_hash = ?', keyHash);
    },
    async getApiKey(workspaceId, id) {
      return one<ApiKey>(
        apiKeys,
        'SELECT * FROM api_keys WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async listApiKeys(workspaceId, q) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.userId !== undefined) {
        where.push('user_id = ?');
        params.push(q.userId);
      }
      if (q.kind !== undefined) {
        where.push('kind = ?');
        params.push(q.kind);
      }
      return page<ApiKey>(apiKeys, where, params, q);
    },
    async revokeApiKey(workspaceId, id, now) {
      st('UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL').run(
        now.getTime(),
        workspaceId,
        id,
      );
      return store.getApiKey(workspaceId, id);
    },
    async recordApiKeyUse(id, at, from) {
      st(
        'UPDATE api_keys SET last_used_at = ?, last_used_from = ? WHERE id = ? AND coalesce(last_used_at, 0) < ?',
      ).run(at.getTime(), from, id, at.getTime());
    },

    async getEscalationPolicy(workspaceId, id) {
      return one<EscalationPolicy>(
        policies,
        'SELECT * FROM escalation_policies WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async getDefaultEscalationPolicy(workspaceId) {
      return one<EscalationPolicy>(
        policies,
        'SELECT * FROM escalation_policies WHERE workspace_id = ? AND is_default = 1',
        workspaceId,
      );
    },

    async insertMonitor(monitor, { maxMonitors }) {
      return immediate(() => {
        const { n } = st('SELECT count(*) n FROM monitors WHERE workspace_id = ?').get(
          monitor.workspace_id,
        ) as {
          n: number;
        };
        if (n >= maxMonitors) return 'limit_reached' as const;
        st(insertSql(monitors)).run(toRow(monitors, monitor));
        monitorChanged(monitor.id);
        return 'inserted' as const;
      });
    },
    async getMonitor(workspaceId, id) {
      return one<Monitor>(
        monitors,
        'SELECT * FROM monitors WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async listMonitors(workspaceId, q: MonitorQuery) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.monitor_type) {
        where.push('monitor_type = ?');
        params.push(q.monitor_type);
      }
      if (q.paused !== undefined) {
        where.push('paused = ?');
        params.push(q.paused ? 1 : 0);
      }
      if (q.search) {
        where.push('(instr(lower(display_name), ?) > 0 OR instr(lower(url), ?) > 0)');
        params.push(q.search.toLowerCase(), q.search.toLowerCase());
      }
      return page<Monitor>(monitors, where, params, q);
    },
    async countMonitors(workspaceId) {
      return (st('SELECT count(*) n FROM monitors WHERE workspace_id = ?').get(workspaceId) as { n: number })
        .n;
    },
    async updateMonitor(next, expectedVersion) {
      const changed = immediate(() => {
        const r = st(
          updateSql(monitors, 'id = @id AND workspace_id = @workspace_id AND version = @expected'),
        ).run({ ...toRow(monitors, next), expected: expectedVersion });
        if (r.changes === 1) monitorChanged(next.id);
        return r.changes === 1;
      });
      if (changed) return 'updated';
      return (await store.getMonitor(next.workspace_id, next.id)) ? 'conflict' : 'not_found';
    },
    async deleteMonitor(workspaceId, id) {
      return immediate(() => {
        const gone =
          st('DELETE FROM monitors WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 1;
        if (gone) monitorChanged(id);
        return gone;
      });
    },

    async insertHeartbeat(heartbeat) {
      st(insertSql(heartbeats)).run(toRow(heartbeats, heartbeat));
    },
    async getHeartbeat(workspaceId, id) {
      return one<Heartbeat>(
        heartbeats,
        'SELECT * FROM heartbeats WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async findHeartbeat(id) {
      return one<Heartbeat>(heartbeats, 'SELECT * FROM heartbeats WHERE id = ?', id);
    },
    async listHeartbeats(workspaceId, q) {
      return page<Heartbeat>(heartbeats, ['workspace_id = ?'], [workspaceId], q);
    },
    async updateHeartbeat(next, expectedVersion) {
      // State, last ping, deadline, run and alert belong to pings and the deadline job, not to edits;
      // an edit makes the heartbeat due now, so the job re-evaluates it with the new period and grace.
      const {
        last_ping_at: _l,
        state: _s,
        due_at: _d,
        started_at: _st,
        start_rid: _r,
        alert_id: _a,
        state_version: _v,
        rearmed_at: _ra,
        ...rest
      } = toRow(heartbeats, next);
      const cols = Object.keys(rest).filter((c) => c !== 'id' && c !== 'workspace_id');
      const r = db
        .prepare(
          `UPDATE heartbeats SET ${cols.map((c) => `${c} = @${c}`).join(', ')},
             due_at = @updated_at, state_version = state_version + 1
           WHERE id = @id AND workspace_id = @workspace_id AND version = @expected`,
        )
        .run({ ...rest, expected: expectedVersion });
      if (r.changes === 1) return 'updated';
      return (await store.getHeartbeat(next.workspace_id, next.id)) ? 'conflict' : 'not_found';
    },
    async transitionHeartbeat(workspaceId, id, expected: HeartbeatState, next: HeartbeatState, at) {
      return (
        db
          .prepare(
            `UPDATE heartbeats SET state = ?, updated_at = ?, state_version = state_version + 1
             WHERE workspace_id = ? AND id = ? AND state = ?`,
          )
          .run(next, at.getTime(), workspaceId, id, expected).changes === 1
      );
    },
    async deleteHeartbeat(workspaceId, id) {
      return immediate(() => {
        const gone = st('DELETE FROM heartbeats WHERE workspace_id = ? AND id = ?').run(workspaceId, id);
        if (gone.changes === 1) st('DELETE FROM pings WHERE heartbeat_id = ?').run(id);
        return gone.changes === 1;
      });
    },
    async recordPings(batch) {
      if (batch.length === 0) return;
      const touches = pingTouches(batch);
      const rows = batch.flatMap(pingParams);
      if (inMemory) return recordPingsInThread.immediate(rows, touches);
      pingWriter ??= createPingWriter({
        path: opts.path,
        busyTimeoutMs: opts.busyTimeoutMs ?? 5000,
        insertSql: insertPingSql,
        width: pingWidth,
        touchSql: touchHeartbeatSql,
      });
      await pingWriter.write(rows, touches);
    },
    async listPings(workspaceId, heartbeatId, q) {
      return page<Ping>(pings, ['workspace_id = ?', 'heartbeat_id = ?'], [workspaceId, heartbeatId], q, 'at');
    },

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
        const prev = one<AgentSession>(
          agentSessions,
          'SELECT * FROM agent_sessions WHERE instance_id = ?',
          input.instance_id,
        );
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
      return one<AgentSession>(
        agentSessions,
        'SELECT * FROM agent_sessions WHERE instance_id = ?',
        instanceId,
      );
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
    async endAgentSession(instanceId, sessionId) {
      st('DELETE FROM agent_sessions WHERE instance_id = ? AND session_id = ?').run(instanceId, sessionId);
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

    async listRegionMonitors(region) {
      return many<Monitor>(
        monitors,
        `SELECT * FROM monitors WHERE paused = 0
           AND EXISTS (SELECT 1 FROM json_each(monitors.check_locations) WHERE value = ?)`,
        region,
      );
    },
    async getMonitorsByIds(ids) {
      if (ids.length === 0) return [];
      return many<Monitor>(
        monitors,
        `SELECT * FROM monitors WHERE id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(ids),
      );
    },
    async scanMonitors(afterId, limit) {
      return many<Monitor>(
        monitors,
        'SELECT * FROM monitors WHERE id > ? ORDER BY id LIMIT ?',
        afterId ?? '',
        limit,
      );
    },

    async listMonitorChanges(afterSeq, limit) {
      return (
        st('SELECT * FROM monitor_changes WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit) as Row[]
      ).map((r) => ({ ...(r as unknown as MonitorChange), at: new Date(r.at as number) }));
    },
    async latestMonitorChange() {
      return (st('SELECT max(seq) seq FROM monitor_changes').get() as { seq: number | null }).seq ?? 0;
    },
    async requestRuns(runs) {
      if (runs.length === 0) return;
      immediate(() => {
        for (const r of runs) {
          st(
            `INSERT INTO monitor_changes (monitor_id, kind, location, reason, request_id, at)
             VALUES (?, 'run', ?, ?, ?, ?)`,
          ).run(r.monitor_id, r.location, r.reason, r.request_id, r.at.getTime());
        }
      });
    },
    async pruneMonitorChanges(before, limit) {
      return st(
        `DELETE FROM monitor_changes WHERE seq IN (SELECT seq FROM monitor_changes WHERE at < ?
           AND seq < (SELECT max(seq) FROM monitor_changes) ORDER BY seq LIMIT ?)`,
      ).run(before.getTime(), limit).changes;
    },

    async insertResults(batch) {
      if (batch.length === 0) return [];
      return immediate(() => {
        const insert = st(`${insertSql(results)} ON CONFLICT DO NOTHING`);
        return batch.filter((r) => insert.run(toRow(results, r)).changes === 1).map((r) => r.id);
      });
    },
    async listResults(workspaceId, monitorId, q) {
      const where = ['workspace_id = ?', 'monitor_id = ?'];
      const params: unknown[] = [workspaceId, monitorId];
      if (q.location) {
        where.push('location = ?');
        params.push(q.location);
      }
      if (q.since) {
        where.push('scheduled_at >= ?');
        params.push(q.since.getTime());
      }
      if (q.until) {
        where.push('scheduled_at < ?');
        params.push(q.until.getTime());
      }
      const cur = decodeCursor(q.cursor);
      if (cur) {
        where.push('(scheduled_at < ? OR (scheduled_at = ? AND id < ?))');
        params.push(cur.t, cur.t, cur.id);
      }
      const rows = many<CheckResultRecord>(
        results,
        `SELECT * FROM check_results WHERE ${where.join(' AND ')} ORDER BY scheduled_at DESC, id DESC LIMIT ?`,
        ...params,
        q.limit + 1,
      );
      const data = rows.slice(0, q.limit);
      const last = data[data.length - 1];
      return {
        data,
        next_cursor: rows.length > q.limit && last ? encodeCursor(last.scheduled_at, last.id) : null,
      };
    },
    async countResults(workspaceId, monitorId, since, until) {
      const r = st(
        `SELECT count(*) total, coalesce(sum(ok), 0) ok FROM check_results
         WHERE workspace_id = ? AND monitor_id = ? AND scheduled_at >= ? AND scheduled_at < ?`,
      ).get(workspaceId, monitorId, since.getTime(), until.getTime()) as { total: number; ok: number };
      return r;
    },
    async pruneResults(before, limit) {
      return st(
        'DELETE FROM check_results WHERE rowid IN (SELECT rowid FROM check_results WHERE received_at < ? LIMIT ?)',
      ).run(before.getTime(), limit).changes;
    },

    async listMonitorStates(monitorId) {
      return many<MonitorLocationState>(
        monitorStates,
        'SELECT * FROM monitor_states WHERE monitor_id = ? ORDER BY location',
        monitorId,
      );
    },
    async recordResults(batch, step) {
      if (batch.length === 0) return { stored: [], states: [] };
      const touched = JSON.stringify([...new Set(batch.map((r) => r.monitor_id))]);
      return immediate(() => {
        const insert = st(`${insertSql(results)} ON CONFLICT DO NOTHING`);
        const put = st(
          `${insertSql(monitorStates)} ON CONFLICT (monitor_id, location) DO UPDATE SET ${Object.keys(
            monitorStates.columns,
          )
            .filter((c) => c !== 'monitor_id' && c !== 'location')
            .map((c) => `${c} = excluded.${c}`)
            .join(', ')}`,
        );
        // Every state of the monitors concerned in one read; steps then work on this map.
        const states = new Map<string, MonitorLocationState>();
        for (const s of many<MonitorLocationState>(
          monitorStates,
          'SELECT * FROM monitor_states WHERE monitor_id IN (SELECT value FROM json_each(?))',
          touched,
        ))
          states.set(`${s.monitor_id}|${s.location}`, s);
        const stored: string[] = [];
        for (const r of batch) {
          if (insert.run(toRow(results, r)).changes !== 1) continue;
          stored.push(r.id);
          const key = `${r.monitor_id}|${r.location}`;
          const next = step(states.get(key) ?? null, r);
          if (!next) continue;
          put.run(toRow(monitorStates, next));
          states.set(key, next);
        }
        const after = [...states.values()].sort(
          (a, b) => a.monitor_id.localeCompare(b.monitor_id) || a.location.localeCompare(b.location),
        );
        return { stored, states: after };
      });
    },
    async putMonitorState(next, expectedVersion) {
      if (expectedVersion === 0) {
        return (
          st(`${insertSql(monitorStates)} ON CONFLICT (monitor_id, location) DO NOTHING`).run(
            toRow(monitorStates, next),
          ).changes === 1
        );
      }
      const cols = Object.keys(monitorStates.columns).filter((c) => c !== 'monitor_id' && c !== 'location');
      return (
        st(
          `UPDATE monitor_states SET ${cols.map((c) => `${c} = @${c}`).join(', ')}
           WHERE monitor_id = @monitor_id AND location = @location AND version = @expected`,
        ).run({ ...toRow(monitorStates, next), expected: expectedVersion }).changes === 1
      );
    },

    async raiseAlert(alert) {
      const key = openKey(alert);
      return immediate(() => {
        const existing = one<Alert>(alerts, 'SELECT * FROM alerts WHERE open_key = ?', key);
        if (existing) return { alert: existing, created: false };
        st(insertSql(alerts, ['open_key'])).run({
          ...toRow(alerts, alert),
          open_key: alert.status === 'resolved' ? null : key,
        });
        return { alert, created: true };
      });
    },
    async findOpenAlert(key) {
      return one<Alert>(alerts, 'SELECT * FROM alerts WHERE open_key = ?', openKey(key));
    },
    async findOpenAlerts(keys: AlertKey[]) {
      if (keys.length === 0) return [];
      return many<Alert>(
        alerts,
        'SELECT * FROM alerts WHERE open_key IN (SELECT value FROM json_each(?))',
        JSON.stringify(keys.map(openKey)),
      );
    },
    async getAlert(workspaceId, id) {
      return one<Alert>(alerts, 'SELECT * FROM alerts WHERE workspace_id = ? AND id = ?', workspaceId, id);
    },
    async listAlerts(workspaceId, q: AlertQuery) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.status?.length) {
        where.push(`status IN (${q.status.map(() => '?').join(', ')})`);
        params.push(...q.status);
      }
      if (q.source_type) {
        where.push('source_type = ?');
        params.push(q.source_type);
      }
      if (q.source_id) {
        where.push('source_id = ?');
        params.push(q.source_id);
      }
      if (q.since) {
        where.push('created_at >= ?');
        params.push(q.since.getTime());
      }
      if (q.until) {
        where.push('created_at < ?');
        params.push(q.until.getTime());
      }
      return page<Alert>(alerts, where, params, q);
    },
    async resolveAlert(workspaceId, id, by: Actor, at) {
      // One transaction: the resolve and the re-arming of its source (see port.ts) commit together.
      const r = immediate(() => {
        const changed = st(
          `UPDATE alerts SET status = 'resolved', resolved_at = ?, resolved_by = ?, updated_at = ?, open_key = NULL,
             escalation_due_at = NULL
           WHERE workspace_id = ? AND id = ? AND status != 'resolved'`,
        ).run(at.getTime(), JSON.stringify(by), at.getTime(), workspaceId, id).changes;
        const alert = one<Alert>(
          alerts,
          'SELECT * FROM alerts WHERE workspace_id = ? AND id = ?',
          workspaceId,
          id,
        );
        if (changed === 1 && alert?.source_type === 'monitor' && alert.cause === 'down') {
          st(
            `UPDATE monitor_states SET status = 'unknown', version = version + 1
             WHERE monitor_id = ? AND location = '*' AND status = 'down'`,
          ).run(alert.source_id);
        }
        if (changed === 1 && alert?.source_type === 'heartbeat') {
          st(
            `UPDATE heartbeats SET alert_id = NULL, rearmed_at = CASE WHEN state = 'down' THEN ? ELSE rearmed_at END,
               due_at = ?, state_version = state_version + 1
             WHERE workspace_id = ? AND id = ? AND alert_id = ?`,
          ).run(at.getTime(), at.getTime(), workspaceId, alert.source_id, id);
        }
        return { changed, alert };
      });
      if (!r.alert) return { outcome: 'not_found', alert: null };
      return { outcome: r.changed === 1 ? 'resolved' : 'already_resolved', alert: r.alert };
    },
  };
  return store;
};
