import { AppError } from '@lookout/shared';
import { DAY_MS } from '../../domain/results/uptime.js';
import type { Incident, StatusPage, StatusPageStore } from '../../domain/status-pages/status-page-store.js';
import type { SqliteContext } from './db.js';
import { WAITING_CTE, waitingAfter } from './rollups.js';
import type { SqliteStateBook } from './state-book.js';
import { insertMailEventSql, mailEventRow } from './status-subscribers.js';
import { insertSql, statusIncidents, statusPages, toRow, updateSql } from './tables.js';

/** The unique index a violation names: which of the page's two unique fields is taken. */
const conflictOf = (e: unknown): AppError | null => {
  if (!(e instanceof Error) || (e as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') return null;
  return e.message.includes('custom_domain')
    ? new AppError('conflict', 'This custom domain is already used by another status page.', [
        { field: 'custom_domain', message: 'is already used by another status page' },
      ])
    : new AppError('conflict', 'This slug is already used by another status page of the workspace.', [
        { field: 'slug', message: 'is already used by another status page of the workspace' },
      ]);
};

const uniquely = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (e) {
    throw conflictOf(e) ?? e;
  }
};

/** JSON keeps an update's time as a string: back to a Date. */
const revive = (i: Incident | null): Incident | null =>
  i && { ...i, updates: i.updates.map((u) => ({ ...u, created_at: new Date(u.created_at) })) };

/** Status pages and incidents in SQLite: one row per page (components as JSON), one per incident. */
export const sqliteStatusPages = (
  { st, one, many, page, immediate }: SqliteContext,
  book: SqliteStateBook,
): StatusPageStore => ({
  async insertStatusPage(p) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      uniquely(() => st(insertSql(statusPages)).run(toRow(statusPages, p)));
    });
  },
  async getStatusPage(workspaceId, id) {
    return one<StatusPage>(
      statusPages,
      'SELECT * FROM status_pages WHERE workspace_id = ? AND id = ?',
      workspaceId,
      id,
    );
  },
  async getStatusPageBySlug(workspaceId, slug) {
    return one<StatusPage>(
      statusPages,
      'SELECT * FROM status_pages WHERE workspace_id = ? AND slug = ?',
      workspaceId,
      slug,
    );
  },
  async getStatusPageByDomain(domain) {
    return one<StatusPage>(
      statusPages,
      "SELECT * FROM status_pages WHERE custom_domain = ? AND custom_domain_status = 'verified'",
      domain,
    );
  },
  async recordDomainCheck(workspaceId, id, expected, next) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return uniquely(
        () =>
          st(
            `UPDATE status_pages SET custom_domain_token = @custom_domain_token,
             custom_domain_status = @custom_domain_status, custom_domain_checked_at = @custom_domain_checked_at,
             custom_domain_failures = @custom_domain_failures, custom_domain_error = @custom_domain_error
           WHERE workspace_id = @ws AND id = @id AND custom_domain = @domain
             AND custom_domain_token IS @token`,
          ).run({
            ...next,
            custom_domain_checked_at: next.custom_domain_checked_at?.getTime() ?? null,
            ws: workspaceId,
            id,
            domain: expected.custom_domain,
            token: expected.custom_domain_token,
          }).changes === 1,
      );
    });
  },
  async listDomainsDue(checkedBefore, limit) {
    return many<StatusPage>(
      statusPages,
      `SELECT * FROM status_pages WHERE custom_domain IS NOT NULL AND coalesce(custom_domain_checked_at, 0) < ?
         ORDER BY coalesce(custom_domain_checked_at, 0), id LIMIT ?`,
      checkedBefore.getTime(),
      limit,
    );
  },
  async listStatusPages(workspaceId, q) {
    return page<StatusPage>(statusPages, ['workspace_id = ?'], [workspaceId], q);
  },
  async countStatusPages(workspaceId) {
    return st('SELECT count(*) FROM status_pages WHERE workspace_id = ?').pluck().get(workspaceId) as number;
  },
  async listAutoDraftPages() {
    return many<StatusPage>(statusPages, 'SELECT * FROM status_pages WHERE auto_draft_incidents = 1');
  },
  async updateStatusPage(p) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return uniquely(
        () =>
          st(updateSql(statusPages, 'workspace_id = @workspace_id AND id = @id')).run(toRow(statusPages, p))
            .changes === 1,
      );
    });
  },
  async deleteStatusPage(workspaceId, id) {
    return immediate(() => {
      const gone =
        st('DELETE FROM status_pages WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 1;
      if (gone) {
        st('DELETE FROM status_incidents WHERE workspace_id = ? AND page_id = ?').run(workspaceId, id);
        for (const t of ['status_subscribers', 'status_mail_events', 'status_mail_outbox'])
          st(`DELETE FROM ${t} WHERE workspace_id = ? AND page_id = ?`).run(workspaceId, id);
      }
      return gone;
    });
  },

  async insertIncident(i, announce) {
    try {
      immediate(() => {
        st(insertSql(statusIncidents)).run(toRow(statusIncidents, i));
        if (announce) st(insertMailEventSql).run(mailEventRow(announce));
      });
      return true;
    } catch (e) {
      if (conflictOf(e) && i.auto_key !== null) return false;
      throw e;
    }
  },
  async getIncident(workspaceId, pageId, id) {
    return revive(
      one<Incident>(
        statusIncidents,
        'SELECT * FROM status_incidents WHERE workspace_id = ? AND page_id = ? AND id = ?',
        workspaceId,
        pageId,
        id,
      ),
    );
  },
  async listIncidents(workspaceId, pageId, q) {
    const where = ['workspace_id = ?', 'page_id = ?'];
    const params: unknown[] = [workspaceId, pageId];
    if (q.published !== undefined) {
      where.push('published = ?');
      params.push(q.published ? 1 : 0);
    }
    const p = page<Incident>(statusIncidents, where, params, q);
    return { ...p, data: p.data.map((i) => revive(i)!) };
  },
  async listPublicIncidents(workspaceId, pageId, resolvedSince, limit) {
    return many<Incident>(
      statusIncidents,
      `SELECT * FROM status_incidents WHERE page_id = ? AND workspace_id = ? AND published = 1
         AND (resolved_at IS NULL OR resolved_at >= ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
      pageId,
      workspaceId,
      resolvedSince.getTime(),
      limit,
    ).map((i) => revive(i)!);
  },
  async updateIncident(i, expectedVersion, announce) {
    try {
      return immediate(() => {
        const written =
          st(
            updateSql(statusIncidents, 'workspace_id = @workspace_id AND id = @id AND version = @expected'),
          ).run({
            ...toRow(statusIncidents, i),
            expected: expectedVersion,
          }).changes === 1;
        if (written && announce) st(insertMailEventSql).run(mailEventRow(announce));
        return written;
      });
    } catch (e) {
      throw conflictOf(e)
        ? new AppError('conflict', 'Another open incident is the automatic draft of this component.')
        : e;
    }
  },
  async deleteIncident(workspaceId, pageId, id) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return (
        st('DELETE FROM status_incidents WHERE workspace_id = ? AND page_id = ? AND id = ?').run(
          workspaceId,
          pageId,
          id,
        ).changes === 1
      );
    });
  },
  async pruneIncidents(before, limit) {
    return st(
      `DELETE FROM status_incidents WHERE id IN
         (SELECT id FROM status_incidents WHERE resolved_at IS NOT NULL AND resolved_at < ? LIMIT ?)`,
    ).run(before.getTime(), limit).changes;
  },

  async dailyUptime(workspaceId, monitorIds, fromDay, toDay) {
    if (monitorIds.length === 0) return [];
    // The buckets and the results still waiting for them (rollups.ts), in one snapshot.
    return st(
      `WITH ${WAITING_CTE}, ids(id) AS (SELECT value FROM json_each(@ids))
       SELECT monitor_id, day, sum(total) AS total, sum(ok) AS ok FROM (
         SELECT monitor_id, day, total, ok FROM uptime_daily
           WHERE monitor_id IN (SELECT id FROM ids) AND day >= @from AND day < @to AND workspace_id = @ws
         UNION ALL
         SELECT r.monitor_id, r.scheduled_at - r.scheduled_at % ${DAY_MS}, 1, r.ok != 0
           FROM check_results_recent r
           WHERE r.rid IN (SELECT value FROM json_each(@rids)) AND r.scheduled_at >= @from AND r.scheduled_at < @to
             AND ${waitingAfter('r')} AND r.workspace_id = @ws)
       GROUP BY monitor_id, day ORDER BY monitor_id, day`,
    ).all({
      ids: JSON.stringify(monitorIds),
      rids: book.recentRowIds(monitorIds),
      from: fromDay,
      to: toDay,
      ws: workspaceId,
    }) as {
      monitor_id: string;
      day: number;
      total: number;
      ok: number;
    }[];
  },
});
