import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@lookout/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { durationText, percentText } from '../../control-plane/src/domain/reports/report-mail.js';
import { createUser, createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { CheckResultRecord } from '../../control-plane/src/domain/types.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type ClockedControlPlane, startClockedControlPlane } from '../support/clocked-control-plane.js';
import { jobPassed } from '../support/job-passes.js';
import { exited } from '../support/processes.js';
import { startSmtp } from '../support/receivers.js';

/**
 * The monthly SLA report by mail through two real control-plane processes on one SQLite file, each with
 * a clock the test moves, and a real SMTP server (the deployment's LOOKOUT_SMTP_*): nothing before
 * 06:00 UTC on December 1st; then November's report, once per recipient whichever replica passes
 * first, with the figures `GET /reports/sla` gives for November; nothing more on later passes; none
 * for a workspace whose schedule is off; send-now mails at once.
 */
const NOV1 = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;
const DEC1_0559 = Date.parse('2026-12-01T05:59:00Z');
const DEC1_0601 = Date.parse('2026-12-01T06:01:00Z');
const dir = mkdtempSync(join(tmpdir(), 'lookout-report-mail-'));
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  rmSync(dir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: test convenience
type Json = any;
const call = (port: number, host: string, key: string, method: string, path: string, json?: unknown) =>
  new Promise<{ status: number; body: Json; text: string }>((resolve, reject) => {
    const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const headers: Record<string, string> = { host, 'x-api-key': key };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const req = httpRequest({ host: '127.0.0.1', port, method, path: `/api/v1${path}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Json;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body, text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });

const result = (ws: string, monitor: string, at: number, ok: boolean, ms: number): CheckResultRecord => ({
  id: newId(),
  workspace_id: ws,
  monitor_id: monitor,
  monitor_version: 1,
  location: 'eu-west',
  instance_id: 'agent-1',
  scheduled_at: new Date(at),
  started_at: new Date(at),
  received_at: new Date(at + 1000),
  ok,
  error_kind: ok ? null : 'timeout',
  error_message: ok ? null : 'timed out',
  response_time_ms: ms,
  status_code: ok ? 200 : null,
  timings: null,
  tls_valid_to: null,
  domain_expires_at: null,
  dns_records: [],
  run_now_request_id: null,
});

describe('the monthly SLA report by mail', () => {
  it('mails November once per recipient on Dec 1st after 06:00 from two replicas, with the figures of GET /reports/sla', async () => {
    const smtp = await startSmtp();
    const path = join(dir, 'lookout.db');
    const seed = createSqliteStore({ path });
    await seed.init();
    const plans = loadConfig({}, {}).plans;
    const made = async (subdomain: string) => {
      const { workspace, admin } = await createWorkspace(
        seed,
        plans,
        { subdomain, admin_email: `admin@${subdomain}.test`, plan: 'team' },
        new Date(NOV1 - 30 * 24 * HOUR),
      );
      const key = await createNamedKey(seed, workspace, admin, { name: 'k', expiry: 'none' }, new Date(NOV1));
      const user = async (email: string, role: 'member' | 'viewer') =>
        (await createUser(seed, workspace, { email, role }, new Date(NOV1))).user;
      return { workspace, admin, key: key.value, host: `${subdomain}.localhost`, user };
    };
    const on = await made('report-on');
    const off = await made('report-off');
    const ana = await on.user('ana@report-on.test', 'member');
    const bob = await on.user('bob@report-on.test', 'viewer');
    const olga = await off.user('olga@report-off.test', 'member');
    // More workspaces due at once, so that the two replicas' passes overlap and race for the same months.
    const crowd: { w: Awaited<ReturnType<typeof made>>; email: string; id: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const w = await made(`report-crowd-${i}`);
      const email = `reader@report-crowd-${i}.test`;
      crowd.push({ w, email, id: (await w.user(email, 'viewer')).id });
    }
    await seed.close();

    const env = {
      LOOKOUT_REPORT_MAIL_POLL_MS: '20',
      LOOKOUT_RESULT_RETENTION_DAYS: '120',
      LOOKOUT_SMTP_HOST: '127.0.0.1',
      LOOKOUT_SMTP_PORT: String(smtp.port),
      LOOKOUT_SMTP_FROM: 'Lookout <reports@lookout.test>',
    };
    const start = () => startClockedControlPlane({ data: dir, clockStart: NOV1 + HOUR, children, env });
    const both: ClockedControlPlane[] = [await start(), await start()];
    const [a] = both as [ClockedControlPlane];
    const api = (w: typeof on, method: string, p: string, json?: unknown) =>
      call(a.port, w.host, w.key, method, p, json);

    // Two monitors; November's results written into the same file (as ingestion would).
    const monitor = async (name: string) => {
      const r = await api(on, 'POST', '/monitors/create', {
        display_name: name,
        monitor_type: 'tcp',
        url: `${name.toLowerCase()}.example.com`,
        port: 22,
      });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const apiId = await monitor('API');
    const dbId = await monitor('Database');
    const results: CheckResultRecord[] = [];
    for (let t = NOV1 + HOUR; t < NOV1 + 30 * 24 * HOUR; t += HOUR) {
      const down = t >= NOV1 + (4 * 24 + 10) * HOUR && t < NOV1 + (4 * 24 + 16) * HOUR;
      results.push(result(on.workspace.id, apiId, t, !down, 100 + ((t / HOUR) % 50)));
      results.push(result(on.workspace.id, dbId, t, true, 20 + ((t / HOUR) % 7)));
    }
    const writer = createSqliteStore({ path });
    await writer.init();
    for (let i = 0; i < results.length; i += 500)
      await writer.recordResults(results.slice(i, i + 500), () => null);
    await writer.raiseAlert({
      id: newId(),
      workspace_id: on.workspace.id,
      source_type: 'monitor',
      source_id: apiId,
      cause: 'down',
      dedup_key: '',
      title: 'API is down',
      description: null,
      severity: 'critical',
      status: 'resolved',
      escalation_policy_id: null,
      created_at: new Date(NOV1 + (4 * 24 + 10) * HOUR),
      updated_at: new Date(NOV1 + (4 * 24 + 16) * HOUR),
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: new Date(NOV1 + (4 * 24 + 16) * HOUR),
      resolved_by: null,
      escalation: null,
      escalation_due_at: null,
    });
    await writer.flushResults();
    await writer.close();

    const set = await api(on, 'PUT', '/reports/schedule', {
      enabled: true,
      recipient_user_ids: [ana.id, bob.id],
      scope: { type: 'workspace', id: null },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.next_report_month).toBe('2026-11');
    const offSet = await api(off, 'PUT', '/reports/schedule', {
      enabled: false,
      recipient_user_ids: [olga.id],
    });
    expect(offSet.status, offSet.text).toBe(200);
    for (const c of crowd) {
      const r = await api(c.w, 'PUT', '/reports/schedule', { enabled: true, recipient_user_ids: [c.id] });
      expect(r.status, r.text).toBe(200);
    }
    // Only the reports: alerts the moved clock raises (no agent in a region) mail the admins too.
    const reports = () => smtp.mails.filter((m) => m.subject?.includes('SLA report'));
    const isCrowd = (m: { rcpt: string[] }) => m.rcpt.some((x) => x.includes('@report-crowd-'));
    const crowdMails = () => reports().filter(isCrowd);
    const onMails = () => reports().filter((m) => !isCrowd(m));

    const passAt = async (ms: number) => {
      await Promise.all(both.map((r) => r.setClock(ms)));
      for (const r of both) await jobPassed(`http://127.0.0.1:${r.port}`, 'monthly-reports', ms);
      for (const r of both) await jobPassed(`http://127.0.0.1:${r.port}`, 'monthly-reports', ms);
    };
    await passAt(DEC1_0559);
    expect(reports()).toHaveLength(0);
    await passAt(DEC1_0601);
    expect(
      onMails()
        .map((m) => m.rcpt.join(','))
        .sort(),
    ).toEqual(['ana@report-on.test', 'bob@report-on.test']);
    // Each workspace's month went out once, whichever replica claimed it.
    expect(
      crowdMails()
        .map((m) => m.rcpt.join(','))
        .sort(),
    ).toEqual(crowd.map((c) => c.email).sort());

    // The mail's figures are those of GET /reports/sla for November.
    const sla = await api(on, 'GET', '/reports/sla?from=2026-11-01&to=2026-11-30');
    expect(sla.status, sla.text).toBe(200);
    const r = sla.body;
    expect(r.uptime_percent).toBeLessThan(100);
    expect(r.incident_count).toBe(1);
    for (const m of onMails()) {
      expect(m.subject).toContain('SLA report for November 2026');
      const text = m.text ?? '';
      for (const line of [
        `Uptime: ${percentText(r.uptime_percent)}`,
        `Uptime incl. maintenance: ${percentText(r.uptime_percent_with_maintenance)}`,
        `Downtime: ${durationText(r.downtime_seconds)}`,
        `Incidents: ${r.incident_count}`,
        `Response time p95: ${r.response_time_ms.p95} ms`,
        `Error budget left: ${durationText(r.error_budget_seconds_left)}`,
        'Workspace report-on, 2026-11-01 to 2026-11-30 (UTC)',
      ])
        expect(text).toContain(line);
      for (const mon of r.monitors as { name: string; uptime_percent: number | null }[])
        expect(text).toMatch(
          new RegExp(`${mon.name}\\s+${percentText(mon.uptime_percent).replace('.', '\\.')}`),
        );
      expect(text).toMatch(/API\s+API is down\s+6 h/);
      expect(text).toMatch(
        /Full report: http:\/\/report-on\.\S+\/reports\?from=2026-11-01&to=2026-11-30&slo=99\.9/,
      );
      expect(m.html).toContain('Open the full report');
    }

    // Later passes, on either replica, send nothing more; the schedule names December next.
    await passAt(DEC1_0601 + HOUR);
    await passAt(DEC1_0601 + 5 * 24 * HOUR);
    expect(onMails()).toHaveLength(2);
    expect(crowdMails()).toHaveLength(crowd.length);
    expect((await api(on, 'GET', '/reports/schedule')).body.next_report_month).toBe('2026-12');

    // Send now: the previous month's report, at once, to each recipient; the schedule's month unmoved.
    const now = await api(on, 'POST', '/reports/schedule/send-now');
    expect(now.status, now.text).toBe(200);
    expect(now.body.month).toBe('2026-11');
    expect(now.body.recipients.map((x: { email: string; ok: boolean }) => [x.email, x.ok])).toEqual([
      ['ana@report-on.test', true],
      ['bob@report-on.test', true],
    ]);
    expect(onMails()).toHaveLength(4);
    expect(smtp.mails.some((m) => m.rcpt.includes('olga@report-off.test'))).toBe(false);

    // A workspace with its own SMTP server (Settings → Mail) mails through it, as invitations do; send
    // now works while the schedule is off.
    const own = await startSmtp();
    const settings = await api(off, 'PUT', '/settings/mail', {
      host: '127.0.0.1',
      port: own.port,
      tls: 'none',
      from_address: 'Reports <reports@report-off.test>',
    });
    expect(settings.status, settings.text).toBe(200);
    const offNow = await api(off, 'POST', '/reports/schedule/send-now');
    expect(offNow.status, offNow.text).toBe(200);
    const ownReports = own.mails.filter((m) => m.subject?.includes('SLA report'));
    expect(ownReports.map((m) => m.rcpt.join(','))).toEqual(['olga@report-off.test']);
    expect(ownReports[0]!.from?.text).toContain('reports@report-off.test');
    expect(onMails()).toHaveLength(4);
    await own.close();
    await smtp.close();
  });
});
