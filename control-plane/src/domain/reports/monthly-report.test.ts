import { describe, expect, it } from 'vitest';
import type { User, Workspace } from '../types.js';
import { type MonthlyReportDeps, reportLink, runMonthlyReports } from './monthly-report.js';
import { durationText, MAIL_INCIDENTS, renderReportMail } from './report-mail.js';
import { dueMonth, monthDays, previousMonth } from './report-months.js';
import type { ReportSchedule } from './report-schedule-store.js';
import type { SlaReport } from './sla-report.js';

const ws: Workspace = { id: 'w1', subdomain: 'acme', name: 'Acme', plan: 'team', created_at: new Date(0) };
const user = (id: string): User =>
  ({ id, workspace_id: 'w1', email: `${id}@acme.test`, role: 'member' }) as unknown as User;

const report = (over: Partial<SlaReport> = {}): SlaReport => ({
  scope: { type: 'workspace', id: null, name: 'Acme <all>' },
  from: new Date('2026-11-01T00:00:00Z'),
  to: new Date('2026-12-01T00:00:00Z'),
  generated_at: new Date('2026-12-01T06:01:00Z'),
  slo_percent: 99.9,
  period_seconds: 30 * 86_400,
  maintenance_seconds: 3600,
  allowed_downtime_seconds: 2588.4,
  error_budget_seconds_left: -611.6,
  uptime_percent: 99.91234,
  uptime_percent_with_maintenance: 99.8,
  checks: { total: 1000, ok: 999, in_maintenance: 10, ok_in_maintenance: 9 },
  downtime_seconds: 3200,
  incident_count: 2,
  mtta_seconds: 125,
  mttr_seconds: 1600,
  response_time_ms: { p50: 120, p95: 340, p99: null },
  incidents: [
    {
      alert_id: 'a1',
      monitor_id: 'm1',
      monitor_name: 'API <prod>',
      title: 'API down',
      started_at: new Date('2026-11-03T10:00:00Z'),
      acknowledged_at: null,
      resolved_at: new Date('2026-11-03T10:53:20Z'),
      downtime_seconds: 3200,
    },
  ],
  incidents_truncated: false,
  days: [],
  monitors: [
    {
      id: 'm1',
      name: 'API <prod>',
      uptime_percent: 99.9,
      uptime_percent_with_maintenance: 99.8,
      checks: { total: 1000, ok: 999, in_maintenance: 10, ok_in_maintenance: 9 },
      downtime_seconds: 3200,
      incident_count: 2,
      mtta_seconds: 125,
      mttr_seconds: 1600,
      response_time_ms: { p50: 120, p95: 340, p99: null },
      error_budget_seconds_left: -611.6,
    },
  ],
  ...over,
});

describe('report months', () => {
  it('the previous month is due from 06:00 UTC on the 1st, and for the rest of the month', () => {
    expect(dueMonth(new Date('2026-12-01T05:59:59Z'))).toBeNull();
    expect(dueMonth(new Date('2026-12-01T06:00:00Z'))).toBe('2026-11');
    expect(dueMonth(new Date('2026-12-31T23:59:59Z'))).toBe('2026-11');
    expect(dueMonth(new Date('2027-01-01T06:01:00Z'))).toBe('2026-12');
    expect(previousMonth(new Date('2027-01-15T00:00:00Z'))).toBe('2026-12');
    expect(monthDays('2026-11')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(monthDays('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });
});

describe('the report mail', () => {
  it('shows the figures, the monitors and the incidents in both parts, escaped in HTML, with the link', () => {
    const link = reportLink('https://acme.example.com', {
      scope: { type: 'group', id: 'g1' },
      from: '2026-11-01',
      to: '2026-11-30',
      slo: 99.9,
    });
    expect(link).toBe('https://acme.example.com/reports?group_id=g1&from=2026-11-01&to=2026-11-30&slo=99.9');
    const m = renderReportMail(report(), { workspace: 'acme', month: '2026-11', link });
    expect(m.subject).toBe('[Lookout acme] SLA report for November 2026: Acme <all> — uptime 99.912 %');
    for (const line of [
      'Uptime: 99.912 %',
      'Uptime incl. maintenance: 99.800 %',
      'Downtime: 53 min 20 s',
      'Incidents: 2',
      'MTTA: 2 min 5 s',
      'Response time p99: n/a',
      'Error budget left: -10 min 12 s of 43 min 8 s',
      'Workspace acme, 2026-11-01 to 2026-11-30 (UTC)',
      `Full report: ${link}`,
    ])
      expect(m.text).toContain(line);
    expect(m.text).toMatch(/API <prod>\s+99\.900 %\s+99\.800 %\s+53 min 20 s\s+2\s+340 ms/);
    expect(m.text).toMatch(
      /2026-11-03 10:00 UTC\s+API <prod>\s+API down\s+53 min 20 s\s+2026-11-03 10:53 UTC/,
    );
    expect(m.html).toContain('API &lt;prod&gt;');
    expect(m.html).not.toContain('<prod>');
    expect(m.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
  });

  it('lists at most MAIL_INCIDENTS incidents and says how many more the page has', () => {
    const one = report().incidents[0]!;
    const incidents = Array.from({ length: MAIL_INCIDENTS + 7 }, (_, i) => ({ ...one, alert_id: `a${i}` }));
    const m = renderReportMail(report({ incidents }), { workspace: 'acme', month: '2026-11', link: 'x' });
    expect(m.text).toContain('7 incidents not listed here: see the full report.');
    expect(m.text.match(/API down/g)).toHaveLength(MAIL_INCIDENTS);
    expect(durationText(0)).toBe('0 s');
    expect(durationText(90_061)).toBe('1 d 1 h');
  });
});

describe('the monthly report job', () => {
  const setup = (schedules: ReportSchedule[], failFor = new Set<string>()) => {
    const claimed = new Map<string, string>();
    const sent: string[] = [];
    const errors: unknown[] = [];
    const built: unknown[] = [];
    const deps: MonthlyReportDeps = {
      store: {
        async listDueReportSchedules(month, limit) {
          return schedules.filter((s) => s.enabled && s.last_sent_month < month).slice(0, limit);
        },
        async claimReportMonth(id, month) {
          const s = schedules.find((x) => x.workspace_id === id)!;
          if (s.last_sent_month >= month) return false;
          s.last_sent_month = month;
          claimed.set(id, month);
          return true;
        },
        async getWorkspace(id) {
          return { ...ws, id };
        },
        async getUser(_w, id) {
          return id === 'gone' ? null : user(id);
        },
      },
      async build(_w, request) {
        built.push(request);
        return report();
      },
      async send(_w, mail) {
        if (failFor.has(mail.to)) return { ok: false, permanent: true, error: 'mailbox full' };
        sent.push(mail.to);
        return { ok: true, permanent: false, error: null };
      },
      workspaceUrl: (s) => `https://${s}.example.com`,
      onError: (err) => errors.push(err),
    };
    return { deps, claimed, sent, errors, built };
  };
  const schedule = (id: string, over: Partial<ReportSchedule> = {}): ReportSchedule => ({
    workspace_id: id,
    enabled: true,
    recipient_user_ids: ['u1', 'gone', 'u2'],
    scope: { type: 'workspace', id: null },
    slo: 99.5,
    last_sent_month: '2026-10',
    updated_at: new Date(0),
    updated_by: 'u1',
    ...over,
  });

  it('mails nothing before 06:00 on the 1st; then the previous month once, to each user still there', async () => {
    const t = setup([schedule('w1')]);
    expect(await runMonthlyReports(t.deps, new Date('2026-12-01T05:59:00Z'))).toEqual({
      claimed: 0,
      sent: 0,
      failed: 0,
    });
    expect(await runMonthlyReports(t.deps, new Date('2026-12-01T06:01:00Z'))).toEqual({
      claimed: 1,
      sent: 2,
      failed: 0,
    });
    expect(t.built).toEqual([
      { scope: { type: 'workspace', id: null }, from: '2026-11-01', to: '2026-11-30', slo: 99.5 },
    ]);
    expect(t.sent).toEqual(['u1@acme.test', 'u2@acme.test']);
    expect(await runMonthlyReports(t.deps, new Date('2026-12-01T07:00:00Z'))).toEqual({
      claimed: 0,
      sent: 0,
      failed: 0,
    });
    expect(t.sent).toHaveLength(2);
  });

  it('a recipient that fails is logged, the others still get theirs, and the month stays claimed', async () => {
    const t = setup([schedule('w1')], new Set(['u1@acme.test']));
    expect(await runMonthlyReports(t.deps, new Date('2026-12-02T00:00:00Z'))).toEqual({
      claimed: 1,
      sent: 1,
      failed: 1,
    });
    expect(t.sent).toEqual(['u2@acme.test']);
    expect(t.errors).toHaveLength(1);
    expect(await runMonthlyReports(t.deps, new Date('2026-12-02T00:01:00Z'))).toEqual({
      claimed: 0,
      sent: 0,
      failed: 0,
    });
  });

  it('takes at most perPass workspaces a pass; the rest on the next; disabled ones never', async () => {
    const t = setup([schedule('a'), schedule('b'), schedule('c', { enabled: false }), schedule('d')]);
    const now = new Date('2026-12-01T06:00:00Z');
    expect((await runMonthlyReports(t.deps, now, 2)).claimed).toBe(2);
    expect((await runMonthlyReports(t.deps, now, 2)).claimed).toBe(1);
    expect((await runMonthlyReports(t.deps, now, 2)).claimed).toBe(0);
    expect([...t.claimed.keys()]).toEqual(['a', 'b', 'd']);
  });

  it('a report that cannot be built is logged and the month stays claimed', async () => {
    const t = setup([schedule('w1')]);
    t.deps.build = async () => {
      throw new Error('store down');
    };
    expect(await runMonthlyReports(t.deps, new Date('2026-12-01T06:00:00Z'))).toEqual({
      claimed: 1,
      sent: 0,
      failed: 0,
    });
    expect(t.errors).toHaveLength(1);
    expect(t.claimed.get('w1')).toBe('2026-11');
  });
});
