/**
 * StatusPageStore contract (domain/status-pages/status-page-store.ts): pages, their uniqueness rules,
 * incidents (compare-and-set updates, one open automatic draft per component), retention, and the
 * daily uptime the public page draws its bars from.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { afterCheck, freshProof } from '../../control-plane/src/domain/status-pages/custom-domain-proof.js';
import type { Incident, StatusPage } from '../../control-plane/src/domain/status-pages/status-page-store.js';
import { at, fixtures, result, T0 } from './fixtures.js';
import { contract } from './stores.js';

const DAY = 86_400_000;

const statusPage = (workspaceId: string, over: Partial<StatusPage> = {}): StatusPage => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  name: 'Acme status',
  slug: `acme-${randomUUID().slice(0, 6)}`,
  custom_domain: null,
  ...freshProof(null),
  visibility: 'public',
  password_hash: null,
  cookie_secret: 'secret-1',
  accent_color: '#0055ff',
  auto_draft_incidents: false,
  components: [
    {
      id: randomUUID(),
      name: 'API',
      description: 'The public API',
      group: 'Core',
      monitor_id: randomUUID(),
      heartbeat_id: null,
      manual_status: 'operational',
    },
    {
      id: randomUUID(),
      name: 'Support',
      description: null,
      group: null,
      monitor_id: null,
      heartbeat_id: null,
      manual_status: 'degraded_performance',
    },
  ],
  created_at: T0,
  updated_at: T0,
  ...over,
});

const incident = (p: StatusPage, over: Partial<Incident> = {}): Incident => ({
  id: randomUUID(),
  workspace_id: p.workspace_id,
  page_id: p.id,
  title: 'API errors',
  status: 'investigating',
  published: true,
  auto_key: null,
  components: { [p.components[0]!.id]: 'major_outage' },
  updates: [
    {
      id: randomUUID(),
      status: 'investigating',
      message: 'We are looking into it.',
      components: { [p.components[0]!.id]: 'major_outage' },
      created_at: T0,
      created_by: 'user-1',
    },
  ],
  postmortem: null,
  created_at: T0,
  updated_at: T0,
  resolved_at: null,
  version: 1,
  ...over,
});

contract('StatusPageStore', (ctx) => {
  describe('status pages', () => {
    it('stored whole and read back by id, slug and custom domain; another workspace sees nothing', async () => {
      const { store, ws } = ctx();
      const p = statusPage(ws.workspace.id, {
        custom_domain: 'status.acme.test',
        ...freshProof('status.acme.test'),
        custom_domain_status: 'verified',
        custom_domain_checked_at: at(1),
      });
      await store.insertStatusPage(p);
      expect(await store.getStatusPage(ws.workspace.id, p.id)).toEqual(p);
      expect(await store.getStatusPageBySlug(ws.workspace.id, p.slug)).toEqual(p);
      expect(await store.getStatusPageByDomain('status.acme.test')).toEqual(p);
      // By domain: only a verified page.
      const claimed = statusPage(ws.workspace.id, {
        custom_domain: 'status.claimed.test',
        ...freshProof('status.claimed.test'),
      });
      await store.insertStatusPage(claimed);
      expect(await store.getStatusPage(ws.workspace.id, claimed.id)).toEqual(claimed);
      expect(await store.getStatusPageByDomain('status.claimed.test')).toBeNull();
      expect(await store.getStatusPage(randomUUID(), p.id)).toBeNull();
      expect(await store.getStatusPageBySlug(randomUUID(), p.slug)).toBeNull();
    });

    it('a slug is unique in its workspace only; a custom domain among verified pages of the whole service', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const verified = { ...freshProof('status.acme.test'), custom_domain_status: 'verified' as const };
      const p = statusPage(ws.workspace.id, {
        slug: 'status',
        custom_domain: 'status.acme.test',
        ...verified,
      });
      await store.insertStatusPage(p);
      await expect(
        store.insertStatusPage(statusPage(ws.workspace.id, { slug: 'status' })),
      ).rejects.toMatchObject({
        code: 'conflict',
        details: [{ field: 'slug' }],
      });
      await store.insertStatusPage(statusPage(other.workspace.id, { slug: 'status' }));
      await expect(
        store.insertStatusPage(
          statusPage(other.workspace.id, { custom_domain: 'status.acme.test', ...verified }),
        ),
      ).rejects.toMatchObject({ code: 'conflict', details: [{ field: 'custom_domain' }] });
      // Claims not proved take nothing: any number of pages may hold one, and none can prove it now.
      const claim = statusPage(other.workspace.id, {
        custom_domain: 'status.acme.test',
        ...freshProof('status.acme.test'),
      });
      await store.insertStatusPage(claim);
      await store.insertStatusPage(
        statusPage(ws.workspace.id, { custom_domain: 'status.acme.test', ...freshProof('status.acme.test') }),
      );
      await expect(
        store.recordDomainCheck(
          other.workspace.id,
          claim.id,
          { custom_domain: 'status.acme.test', custom_domain_token: claim.custom_domain_token },
          afterCheck(claim, null, at(1)),
        ),
      ).rejects.toMatchObject({ code: 'conflict', details: [{ field: 'custom_domain' }] });
      expect(
        await store.recordDomainCheck(
          other.workspace.id,
          claim.id,
          { custom_domain: 'status.acme.test', custom_domain_token: claim.custom_domain_token },
          afterCheck(claim, 'taken', at(1)),
        ),
      ).toBe(true);
      expect(await store.getStatusPageByDomain('status.acme.test')).toEqual(p);
      // Many pages without a domain.
      await store.insertStatusPage(statusPage(other.workspace.id));
      const second = statusPage(ws.workspace.id, { slug: 'second' });
      await store.insertStatusPage(second);
      await expect(store.updateStatusPage({ ...second, slug: 'status' })).rejects.toMatchObject({
        code: 'conflict',
      });
      await expect(
        store.updateStatusPage({ ...second, custom_domain: 'status.acme.test', ...verified }),
      ).rejects.toMatchObject({ code: 'conflict', details: [{ field: 'custom_domain' }] });
      // The verified page gives the domain up: another page may prove it.
      await store.updateStatusPage({ ...p, custom_domain: null, ...freshProof(null) });
      await store.updateStatusPage({ ...second, custom_domain: 'status.acme.test', ...verified });
      expect((await store.getStatusPageByDomain('status.acme.test'))?.id).toBe(second.id);
    });

    it('a domain check is stored only while the page has that domain and token, in no other workspace', async () => {
      const { store, ws } = ctx();
      const p = statusPage(ws.workspace.id, {
        custom_domain: 'status.proof.test',
        ...freshProof('status.proof.test'),
      });
      await store.insertStatusPage(p);
      const expected = { custom_domain: p.custom_domain, custom_domain_token: p.custom_domain_token };
      const verified = afterCheck(p, null, at(1));
      expect(verified).toMatchObject({ custom_domain_status: 'verified', custom_domain_failures: 0 });
      expect(await store.recordDomainCheck(randomUUID(), p.id, expected, verified)).toBe(false);
      expect(await store.recordDomainCheck(ws.workspace.id, p.id, expected, verified)).toBe(true);
      expect(await store.getStatusPage(ws.workspace.id, p.id)).toEqual({ ...p, ...verified });
      expect(await store.getStatusPageByDomain('status.proof.test')).toEqual({ ...p, ...verified });
      // A failed check of a verified domain keeps it verified (the grace) and says why.
      const failedOnce = afterCheck({ ...p, ...verified }, 'no record', at(2));
      expect(await store.recordDomainCheck(ws.workspace.id, p.id, expected, failedOnce)).toBe(true);
      expect(await store.getStatusPage(ws.workspace.id, p.id)).toMatchObject({
        custom_domain_status: 'verified',
        custom_domain_failures: 1,
        custom_domain_error: 'no record',
        custom_domain_checked_at: at(2),
      });
      // The page moved to another domain (new token) meanwhile: the old check's result is not stored.
      const moved = { ...p, custom_domain: 'status2.proof.test', ...freshProof('status2.proof.test') };
      await store.updateStatusPage(moved);
      expect(await store.recordDomainCheck(ws.workspace.id, p.id, expected, verified)).toBe(false);
      expect(
        await store.recordDomainCheck(
          ws.workspace.id,
          p.id,
          { custom_domain: 'status2.proof.test', custom_domain_token: 'another token' },
          verified,
        ),
      ).toBe(false);
      expect(await store.getStatusPage(ws.workspace.id, p.id)).toEqual(moved);
      // A page stored without a token (before proofs existed) takes one with its first check.
      const legacy = statusPage(ws.workspace.id, {
        custom_domain: 'legacy.proof.test',
        custom_domain_status: 'pending',
      });
      await store.insertStatusPage(legacy);
      const first = afterCheck(legacy, null, at(3));
      expect(first.custom_domain_token).toMatch(/^[0-9a-f]{32}$/);
      expect(
        await store.recordDomainCheck(
          ws.workspace.id,
          legacy.id,
          { custom_domain: 'legacy.proof.test', custom_domain_token: null },
          first,
        ),
      ).toBe(true);
      expect(await store.getStatusPage(ws.workspace.id, legacy.id)).toEqual({ ...legacy, ...first });
    });

    it('domains due a check: never checked or checked before the time, oldest first, at most the limit', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const withDomain = (workspaceId: string, name: string, checkedAt: Date | null) =>
        statusPage(workspaceId, {
          custom_domain: name,
          ...freshProof(name),
          ...(checkedAt
            ? { custom_domain_status: 'verified' as const, custom_domain_checked_at: checkedAt }
            : {}),
        });
      const fresh = withDomain(ws.workspace.id, 'new.due.test', null);
      const old = withDomain(other.workspace.id, 'old.due.test', at(1));
      const older = withDomain(ws.workspace.id, 'older.due.test', at(0));
      const recent = withDomain(ws.workspace.id, 'recent.due.test', at(10));
      for (const p of [recent, old, fresh, older, statusPage(ws.workspace.id)])
        await store.insertStatusPage(p);
      const due = await store.listDomainsDue(at(5), 10);
      expect(due.map((p) => p.custom_domain)).toEqual(['new.due.test', 'older.due.test', 'old.due.test']);
      expect(due[1]).toEqual(older);
      expect((await store.listDomainsDue(at(5), 2)).map((p) => p.custom_domain)).toEqual([
        'new.due.test',
        'older.due.test',
      ]);
      expect(await store.listDomainsDue(at(0), 10)).toEqual([fresh]);
    });

    it('updated whole, listed newest first with a cursor, and deleted with its incidents', async () => {
      const { store, ws } = ctx();
      const pages = [0, 1, 2].map((i) =>
        statusPage(ws.workspace.id, { created_at: at(i), updated_at: at(i) }),
      );
      for (const p of pages) await store.insertStatusPage(p);
      const first = await store.listStatusPages(ws.workspace.id, { limit: 2 });
      expect(first.data.map((p) => p.id)).toEqual([pages[2]!.id, pages[1]!.id]);
      const rest = await store.listStatusPages(ws.workspace.id, { limit: 2, cursor: first.next_cursor! });
      expect(rest.data.map((p) => p.id)).toEqual([pages[0]!.id]);
      expect(rest.next_cursor).toBeNull();
      expect(await store.countStatusPages(ws.workspace.id)).toBe(3);
      expect(await store.countStatusPages(randomUUID())).toBe(0);

      const edited = {
        ...pages[0]!,
        name: 'Renamed',
        components: [],
        auto_draft_incidents: true,
        updated_at: at(9),
      };
      expect(await store.updateStatusPage(edited)).toBe(true);
      expect(await store.getStatusPage(ws.workspace.id, edited.id)).toEqual(edited);
      expect(await store.listAutoDraftPages()).toEqual([edited]);
      expect(await store.updateStatusPage({ ...edited, workspace_id: randomUUID() })).toBe(false);

      const i = incident(pages[1]!);
      await store.insertIncident(i);
      expect(await store.deleteStatusPage(ws.workspace.id, pages[1]!.id)).toBe(true);
      expect(await store.deleteStatusPage(ws.workspace.id, pages[1]!.id)).toBe(false);
      expect(await store.getIncident(ws.workspace.id, pages[1]!.id, i.id)).toBeNull();
    });
  });

  describe('incidents', () => {
    it('stored whole with their updates; an update is a compare-and-set on the version', async () => {
      const { store, ws } = ctx();
      const p = statusPage(ws.workspace.id);
      await store.insertStatusPage(p);
      const i = incident(p);
      expect(await store.insertIncident(i)).toBe(true);
      expect(await store.getIncident(ws.workspace.id, p.id, i.id)).toEqual(i);
      expect(await store.getIncident(randomUUID(), p.id, i.id)).toBeNull();
      const next: Incident = {
        ...i,
        status: 'resolved',
        resolved_at: at(60),
        updated_at: at(60),
        postmortem: '# What happened',
        updates: [
          ...i.updates,
          {
            id: randomUUID(),
            status: 'resolved',
            message: 'Fixed.',
            components: {},
            created_at: at(60),
            created_by: null,
          },
        ],
        version: 2,
      };
      expect(await store.updateIncident(next, 1)).toBe(true);
      expect(await store.updateIncident({ ...next, title: 'lost', version: 2 }, 1)).toBe(false);
      expect(await store.getIncident(ws.workspace.id, p.id, i.id)).toEqual(next);
    });

    it('listed newest first, drafts apart; the public list holds published incidents open or resolved lately', async () => {
      const { store, ws } = ctx();
      const p = statusPage(ws.workspace.id);
      await store.insertStatusPage(p);
      const old = incident(p, { created_at: at(0), resolved_at: at(100), status: 'resolved' });
      const recent = incident(p, { created_at: at(200), resolved_at: at(5000), status: 'resolved' });
      const open = incident(p, { created_at: at(300) });
      const draft = incident(p, { created_at: at(400), published: false });
      for (const i of [old, recent, open, draft]) await store.insertIncident(i);
      const all = await store.listIncidents(ws.workspace.id, p.id, { limit: 3 });
      expect(all.data.map((i) => i.id)).toEqual([draft.id, open.id, recent.id]);
      const more = await store.listIncidents(ws.workspace.id, p.id, { limit: 3, cursor: all.next_cursor! });
      expect(more.data.map((i) => i.id)).toEqual([old.id]);
      const drafts = await store.listIncidents(ws.workspace.id, p.id, { limit: 10, published: false });
      expect(drafts.data.map((i) => i.id)).toEqual([draft.id]);
      const shown = await store.listPublicIncidents(ws.workspace.id, p.id, at(1000), 10);
      expect(shown.map((i) => i.id)).toEqual([open.id, recent.id]);
      expect(shown[0]).toEqual(open);
      expect((await store.listPublicIncidents(ws.workspace.id, p.id, at(1000), 1)).map((i) => i.id)).toEqual([
        open.id,
      ]);
      expect(await store.listPublicIncidents(randomUUID(), p.id, at(0), 10)).toEqual([]);
    });

    it('one incident per automatic key: a second draft for the same outage is refused, even once the first is closed', async () => {
      const { store, ws } = ctx();
      const p = statusPage(ws.workspace.id);
      await store.insertStatusPage(p);
      const key = `${p.components[0]!.id}:${randomUUID()}`;
      const first = incident(p, { published: false, auto_key: key });
      expect(await store.insertIncident(first)).toBe(true);
      expect(await store.insertIncident(incident(p, { published: false, auto_key: key }))).toBe(false);
      expect(await store.insertIncident(incident(p))).toBe(true);
      expect(await store.insertIncident(incident(p))).toBe(true);
      expect(
        await store.updateIncident({ ...first, status: 'resolved', resolved_at: at(9), version: 2 }, 1),
      ).toBe(true);
      expect(await store.insertIncident(incident(p, { published: false, auto_key: key }))).toBe(false);
      // Another outage of the component, or the same key on another page, is another draft.
      expect(
        await store.insertIncident(incident(p, { published: false, auto_key: `${p.components[0]!.id}:x` })),
      ).toBe(true);
      const other = statusPage(ws.workspace.id);
      await store.insertStatusPage(other);
      expect(await store.insertIncident(incident(other, { published: false, auto_key: key }))).toBe(true);
      expect(await store.deleteIncident(ws.workspace.id, p.id, first.id)).toBe(true);
      expect(await store.deleteIncident(ws.workspace.id, p.id, first.id)).toBe(false);
    });

    it('pruning deletes incidents resolved before the bound, in slices, and never open ones', async () => {
      const { store, ws } = ctx();
      const p = statusPage(ws.workspace.id);
      await store.insertStatusPage(p);
      const old = [1, 2, 3].map((s) => incident(p, { status: 'resolved', resolved_at: at(s) }));
      const kept = incident(p, { status: 'resolved', resolved_at: at(500) });
      const open = incident(p, { created_at: at(-1000) });
      for (const i of [...old, kept, open]) await store.insertIncident(i);
      expect(await store.pruneIncidents(at(100), 2)).toBe(2);
      expect(await store.pruneIncidents(at(100), 2)).toBe(1);
      expect(await store.pruneIncidents(at(100), 2)).toBe(0);
      const left = await store.listIncidents(ws.workspace.id, p.id, { limit: 10 });
      expect(left.data.map((i) => i.id).sort()).toEqual([kept.id, open.id].sort());
    });
  });

  describe('daily uptime', () => {
    it('per monitor and UTC day, over every location, for the days asked, of the workspace only', async () => {
      const { store, ws } = ctx();
      const m1 = randomUUID();
      const m2 = randomUUID();
      const day0 = T0.getTime() - (T0.getTime() % DAY);
      const r = (monitor: string, t: number, ok: boolean, location = 'eu-west') =>
        result(ws.workspace.id, monitor, {
          scheduled_at: new Date(t),
          started_at: new Date(t),
          received_at: new Date(t),
          ok,
          location,
        });
      await store.recordResults(
        [
          r(m1, day0 - DAY + 1000, true),
          r(m1, day0 + 1000, true),
          r(m1, day0 + 2000, false, 'us-east'),
          r(m1, day0 + 3000, true, 'us-east'),
          r(m2, day0 + 1000, false),
          r(m1, day0 + DAY + 5, true),
        ],
        () => null,
      );
      expect(await store.dailyUptime(ws.workspace.id, [m1, m2], day0 - DAY, day0 + DAY)).toEqual(
        [
          { monitor_id: m1, day: day0 - DAY, total: 1, ok: 1 },
          { monitor_id: m1, day: day0, total: 3, ok: 2 },
          { monitor_id: m2, day: day0, total: 1, ok: 0 },
        ].sort((a, b) =>
          a.monitor_id < b.monitor_id ? -1 : a.monitor_id > b.monitor_id ? 1 : a.day - b.day,
        ),
      );
      expect(await store.dailyUptime(randomUUID(), [m1], day0 - DAY, day0 + DAY)).toEqual([]);

      // The bars outlive the results and the hourly buckets: daily buckets have their own bound.
      const m1Days = [
        { monitor_id: m1, day: day0 - DAY, total: 1, ok: 1 },
        { monitor_id: m1, day: day0, total: 3, ok: 2 },
      ];
      const later = new Date(day0 + 3 * DAY);
      expect(await store.pruneResults(later, 1000)).toBe(6);
      expect(await store.dailyUptime(ws.workspace.id, [m1], day0 - DAY, day0 + DAY)).toEqual(m1Days);
      await store.pruneRollups(later, 1000, new Date(day0 - 5 * DAY));
      expect(await store.sumRollups(ws.workspace.id, m1, new Date(day0 - DAY), later)).toEqual({
        total: 0,
        ok: 0,
      });
      expect(await store.dailyUptime(ws.workspace.id, [m1], day0 - DAY, day0 + DAY)).toEqual(m1Days);
      await store.pruneRollups(later, 1000, later);
      expect(await store.dailyUptime(ws.workspace.id, [m1], day0 - DAY, day0 + DAY)).toEqual([]);
      expect(await store.dailyUptime(ws.workspace.id, [], day0 - DAY, day0 + DAY)).toEqual([]);
    });
  });
});
