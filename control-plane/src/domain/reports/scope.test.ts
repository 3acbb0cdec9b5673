import { AppError } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import type { MonitorQuery } from '../monitors/monitor-store.js';
import type { Monitor } from '../types.js';
import { resolveScope, type ScopeStore } from './scope.js';
import { MAX_REPORT_MONITORS } from './sla-report.js';

const monitor = (i: number, over: Partial<Monitor> = {}) =>
  ({
    id: `m${String(i).padStart(5, '0')}`,
    workspace_id: 'w',
    display_name: `M ${i}`,
    group_id: null,
    tags: [],
    ...over,
  }) as Monitor;

/** A store of `n` monitors of workspace w, listed by id a page at a time. */
const storeOf = (all: Monitor[]): ScopeStore & { reads: number } => {
  const s = {
    reads: 0,
    async getMonitor(ws: string, id: string) {
      return all.find((m) => m.workspace_id === ws && m.id === id) ?? null;
    },
    async getMonitorsByIds(ids: string[]) {
      return all.filter((m) => ids.includes(m.id));
    },
    async listMonitors(ws: string, q: MonitorQuery) {
      s.reads++;
      const mine = all.filter(
        (m) =>
          m.workspace_id === ws &&
          (q.group_id === undefined || m.group_id === q.group_id) &&
          (q.tag === undefined || m.tags.includes(q.tag)),
      );
      const start = q.cursor ? Number(q.cursor) : 0;
      const data = mine.slice(start, start + q.limit);
      return { data, next_cursor: start + q.limit < mine.length ? String(start + q.limit) : null };
    },
    async getGroup(ws: string, id: string) {
      return ws === 'w' && id === 'g'
        ? { id, workspace_id: ws, name: 'G', created_at: new Date(), updated_at: new Date() }
        : null;
    },
    async getStatusPage(ws: string, id: string) {
      return ws === 'w' && id === 'p'
        ? ({
            id,
            workspace_id: ws,
            name: 'Page',
            components: [{ monitor_id: 'theirs' }, { monitor_id: 'm00001' }, { group_id: 'g' }],
          } as never)
        : null;
    },
  };
  return s;
};

describe('resolveScope', () => {
  const ws = { id: 'w', name: 'Acme' };
  it('takes in a status page’s monitors of this workspace and its groups’ members, by name', async () => {
    const all = [monitor(1), monitor(2, { group_id: 'g' }), monitor(3, { id: 'theirs', workspace_id: 'x' })];
    const r = await resolveScope(storeOf(all), ws, { type: 'status_page', id: 'p' });
    expect(r.name).toBe('Page');
    expect(r.monitors.map((m) => m.id)).toEqual(['m00001', 'm00002']);
  });

  it('is 404 for an unknown or foreign monitor, group or page', async () => {
    const s = storeOf([monitor(1, { workspace_id: 'x' })]);
    for (const scope of [
      { type: 'monitor' as const, id: 'm00001' },
      { type: 'group' as const, id: 'other' },
      { type: 'status_page' as const, id: 'nope' },
    ]) {
      const e = await resolveScope(s, ws, scope).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('not_found');
    }
  });

  it(`refuses a scope of more than ${MAX_REPORT_MONITORS} monitors with a 422 naming its selector`, async () => {
    const all = Array.from({ length: MAX_REPORT_MONITORS + 1 }, (_, i) => monitor(i, { tags: ['env:prod'] }));
    const s = storeOf(all);
    const e = (await resolveScope(s, ws, { type: 'tag', id: 'env:prod' }).catch(
      (x: unknown) => x,
    )) as AppError;
    expect(e.code).toBe('validation_failed');
    expect(e.details.map((d) => d.field)).toEqual(['tag']);
    // Read a page of 1,000 at a time, and stopped once past the limit.
    expect(s.reads).toBe(Math.ceil((MAX_REPORT_MONITORS + 1) / 1000));
    const fits = await resolveScope(storeOf(all.slice(1)), ws, { type: 'workspace', id: null });
    expect(fits.monitors).toHaveLength(MAX_REPORT_MONITORS);
    expect(fits.name).toBe('Acme');
  });
});
