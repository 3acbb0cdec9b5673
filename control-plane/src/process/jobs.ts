import type { Clock, Logger } from '@lookout/shared';
import type { Config } from '../config.js';
import type { OAuthStore } from '../domain/access/oauth-store.js';
import type { PasskeyStore } from '../domain/access/passkey-store.js';
import type { PasswordResetStore } from '../domain/access/password-reset.js';
import type { SamlReplayStore } from '../domain/access/saml-replay-store.js';
import type { SecondFactorStore } from '../domain/access/second-factor-store.js';
import type { SessionStore } from '../domain/access/sessions.js';
import type { SignInStore } from '../domain/access/sign-in-store.js';
import { createCapabilityWatch } from '../domain/agents/capability-alerts.js';
import { checkRegions } from '../domain/agents/region-health.js';
import type { AckLinkStore } from '../domain/alerts/ack-link-store.js';
import type { AlertHoldStore } from '../domain/alerts/alert-hold-store.js';
import { SOURCE_EVENT_RETENTION_DAYS } from '../domain/alerts/alert-hold-store.js';
import type { AuditStore } from '../domain/audit/audit-store.js';
import { decideDueHolds } from '../domain/dependencies/dependency-holds.js';
import { createEscalationRunner } from '../domain/escalation/escalation-runner.js';
import type { NotificationGroupStore } from '../domain/escalation/notification-group-store.js';
import { checkHeartbeatDeadlines } from '../domain/heartbeats/heartbeat-deadlines.js';
import { coverNow, ENDED_WINDOW_DAYS } from '../domain/maintenance/cover.js';
import type { MaintenanceWindowStore } from '../domain/maintenance/maintenance-store.js';
import type { MonitorCatalog } from '../domain/monitors/monitor-catalog.js';
import type { MonitorStore } from '../domain/monitors/monitor-store.js';
import type { CalendarFeedStore } from '../domain/oncall/calendar-feed-store.js';
import { FEED_UNUSED_DAYS } from '../domain/oncall/calendar-feeds.js';
import type { HandoffNoticeStore } from '../domain/oncall/handoff-notice-store.js';
import {
  HANDOFF_NOTICE_RETENTION_DAYS,
  type HandoffJobStore,
  runHandoffNotices,
} from '../domain/oncall/handoff-notices.js';
import { scheduleRetentionCuts } from '../domain/oncall/schedule-history.js';
import type { ScheduleStore } from '../domain/oncall/schedule-store.js';
import { type MonthlyReportStore, runMonthlyReports } from '../domain/reports/monthly-report.js';
import { slaReportBuilder } from '../domain/reports/report-builder.js';
import type { ReportStore } from '../domain/reports/sla.js';
import type { ResultStore } from '../domain/results/result-store.js';
import type { ScriptRunStore } from '../domain/results/script-run-store.js';
import { pruneScriptRunsAt } from '../domain/results/script-runs.js';
import { dailyRollupRetentionDays, rollupRetentionDays } from '../domain/results/uptime.js';
import { openAutoDrafts } from '../domain/status-pages/auto-drafts.js';
import { domainVerified, recheckDomains } from '../domain/status-pages/custom-domain-proof.js';
import type { StatusPageStore } from '../domain/status-pages/status-page-store.js';
import { INCIDENT_RETENTION_DAYS } from '../domain/status-pages/status-pages.js';
import type { StatusSubscriberStore } from '../domain/status-pages/subscriber-store.js';
import {
  PENDING_RETENTION_MS,
  RECIPIENT_WINDOW_MS,
  sendSubscriberMails,
} from '../domain/status-pages/subscribers.js';
import type { TenancyStore } from '../domain/tenancy/tenancy-store.js';
import { accountMailer } from '../notify/account-mailer.js';
import { subscriberMailer } from '../notify/subscriber-mailer.js';
import type { Metrics } from './metrics.js';
import type { SharedServices } from './wiring.js';

/** The store ports the jobs use: what each prunes, and what the domain functions they run read and write. */
export type JobsStore = Pick<ResultStore, 'pruneResults' | 'pruneRollups'> &
  Pick<ScriptRunStore, 'pruneScriptRuns'> &
  Pick<StatusPageStore, 'pruneIncidents'> &
  Pick<StatusSubscriberStore, 'prunePendingSubscribers' | 'pruneRecipientBudgets'> &
  Pick<MonitorStore, 'pruneMonitorChanges'> &
  Pick<SessionStore, 'pruneSessions'> &
  Pick<PasswordResetStore, 'prunePasswordResets'> &
  Pick<SignInStore, 'pruneSignInDevices'> &
  Pick<SecondFactorStore, 'pruneChallenges'> &
  Pick<PasskeyStore, 'prunePasskeyChallenges'> &
  Pick<OAuthStore, 'pruneOAuthRecords'> &
  Pick<AckLinkStore, 'pruneAckLinks'> &
  Pick<CalendarFeedStore, 'pruneCalendarFeeds'> &
  Pick<SamlReplayStore, 'pruneSamlAssertions'> &
  Pick<MaintenanceWindowStore, 'pruneMaintenanceWindows'> &
  Pick<AlertHoldStore, 'pruneSourceEvents'> &
  Parameters<typeof decideDueHolds>[0] &
  Pick<NotificationGroupStore, 'pruneNotificationGroups'> &
  Pick<ScheduleStore, 'pruneSchedules'> &
  Pick<TenancyStore, 'getWorkspace'> &
  Parameters<typeof sendSubscriberMails>[0]['store'] &
  Parameters<typeof checkHeartbeatDeadlines>[0] &
  Parameters<typeof openAutoDrafts>[0] &
  Parameters<typeof recheckDomains>[0] &
  Parameters<typeof checkRegions>[0] &
  Parameters<typeof createEscalationRunner>[0]['store'] &
  HandoffJobStore &
  Pick<HandoffNoticeStore, 'pruneHandoffNotices'> &
  Pick<AuditStore, 'pruneAuditEntries'> &
  MonthlyReportStore &
  ReportStore;

/**
 * Background work of a control-plane replica. Each job is safe to run on every replica at once
 * (idempotent deletes; compare-and-set where a decision is made). A pass never overlaps the previous
 * one of its job; each gets the clock's time when it starts, and is counted in the metrics with that
 * time (`lookout_job_last_pass_timestamp_seconds`: when the last successful pass started).
 */
export const startJobs = (
  deps: SharedServices & {
    store: JobsStore;
    clock: Clock;
    config: Config;
    logger: Logger;
    /** The replica's monitor catalog: region health reads monitors from memory, not the store. */
    catalog?: MonitorCatalog;
    metrics?: Metrics;
    /** A workspace's public base URL (public-url.ts): acknowledge links in notifications, links in subscribers' mail. */
    workspaceUrl?: (subdomain: string) => string;
  },
) => {
  const { store, clock, config } = deps;
  const log = deps.logger.child({ component: 'jobs' });
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, name: string, fn: (now: Date) => Promise<unknown>) => {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      const now = clock.now();
      fn(now)
        .then(
          () => deps.metrics?.jobPass(name, now, true),
          (err) => {
            log.error({ err, job: name }, 'job failed');
            deps.metrics?.jobPass(name, now, false);
          },
        )
        .finally(() => {
          running = false;
        });
    }, ms);
    t.unref();
    timers.push(t);
  };

  // Retention: delete old results in small slices so the store is never blocked for long.
  every(60_000, 'prune-results', async (now) => {
    const before = new Date(now.getTime() - config.result_retention_days * 86_400_000);
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const n = await store.pruneResults(before, 1000);
      total += n;
      if (n < 1000) break;
    }
    if (total > 0) log.info({ pruned: total }, 'old check results pruned');
    // Uptime rollups outlive the results they summarise (domain/results/uptime.ts).
    const rollupsBefore = new Date(
      now.getTime() - rollupRetentionDays(config.result_retention_days) * 86_400_000,
    );
    const dailyBefore = new Date(
      now.getTime() - dailyRollupRetentionDays(config.result_retention_days) * 86_400_000,
    );
    for (let i = 0; i < 100; i++)
      if ((await store.pruneRollups(rollupsBefore, 1000, dailyBefore)) < 1000) break;
    // Scripted runs go with their results; screenshots sooner, and beyond each monitor's newest 20
    // (domain/results/script-runs.ts).
    const runs = await pruneScriptRunsAt(store, now, config.result_retention_days);
    if (runs > 0) log.info({ pruned: runs }, 'old script runs and screenshots pruned');
  });

  // The audit log: entries older than the retention, in slices like the results.
  every(3_600_000, 'prune-audit-log', async (now) => {
    const before = new Date(now.getTime() - config.audit_retention_days * 86_400_000);
    for (let i = 0; i < 100; i++) if ((await store.pruneAuditEntries(before, 1000)) < 1000) break;
  });

  // On-call schedules: overrides ended and offers closed 90 days ago, history older than 400 days.
  every(3_600_000, 'prune-schedules', async (now) => {
    const cuts = scheduleRetentionCuts(now);
    for (let i = 0; i < 100; i++) if ((await store.pruneSchedules(cuts, 1000)) < 1000) break;
  });

  // Status page incidents resolved longer ago than the page's history keeps (domain/status-pages).
  every(60_000, 'prune-incidents', async (now) => {
    const before = new Date(now.getTime() - INCIDENT_RETENTION_DAYS * 86_400_000);
    for (let i = 0; i < 100; i++) if ((await store.pruneIncidents(before, 1000)) < 1000) break;
  });

  // Status page subscribers: incident updates fanned out and sent, and the unconfirmed forgotten.
  const { box } = deps;
  const send = subscriberMailer(deps.mail);
  every(config.status_mail_poll_ms, 'status-page-mail', (now) =>
    sendSubscriberMails({
      store,
      box,
      send,
      now,
      async pageUrl(page) {
        if (domainVerified(page)) return `${config.public_url_scheme}://${page.custom_domain}`;
        const ws = await store.getWorkspace(page.workspace_id);
        return `${deps.workspaceUrl?.(ws?.subdomain ?? '') ?? ''}/status/${page.slug}`;
      },
      onError: (err, mail) => log.error({ err, mail: mail.id }, 'status page mail failed'),
    }),
  );
  every(60_000, 'prune-subscribers', async (now) => {
    const before = new Date(now.getTime() - PENDING_RETENTION_MS);
    for (let i = 0; i < 100; i++) if ((await store.prunePendingSubscribers(before, 1000)) < 1000) break;
    const spent = new Date(now.getTime() - RECIPIENT_WINDOW_MS);
    for (let i = 0; i < 100; i++) if ((await store.pruneRecipientBudgets(spent, 1000)) < 1000) break;
  });

  // The monitor feed needs only what a stalled replica could still be missing; older entries go.
  every(60_000, 'prune-monitor-feed', (now) =>
    store.pruneMonitorChanges(new Date(now.getTime() - 86_400_000), 10_000),
  );

  // Web app sessions past their absolute or idle expiry (they are refused already; this frees the rows).
  every(60_000, 'prune-sessions', (now) => {
    return store.pruneSessions(now, new Date(now.getTime() - config.session_idle_minutes * 60_000), 10_000);
  });

  // Password reset links past their expiry (refused already; this frees the rows), used or not.
  every(60_000, 'prune-password-resets', (now) => store.prunePasswordResets(now, 10_000));

  // Browsers' sign-in devices past their expiry (refused already; this frees the rows).
  every(60_000, 'prune-sign-in-devices', () => store.pruneSignInDevices(clock.now(), 10_000));

  // Sign-in challenges (a password accepted, a second factor owed) past their 5 minutes.
  every(60_000, 'prune-sign-in-challenges', (now) => store.pruneChallenges(now, 10_000));

  // Passkey challenges never answered, past their expiry (refused already; this frees the rows).
  every(60_000, 'prune-passkey-challenges', (now) => store.prunePasskeyChallenges(now, 10_000));

  // The hosted connector's OAuth records past their expiry (oidc-provider refuses them already).
  every(60_000, 'prune-oauth', (now) => store.pruneOAuthRecords(now, 10_000));

  // Heartbeat deadlines: only heartbeats whose stored due_at has come (an index), each stepped by
  // compare-and-set with the alert it raises or resolves, so every replica can run this at once.
  every(config.heartbeat_check_ms, 'heartbeat-deadlines', async (now) => {
    const r = await checkHeartbeatDeadlines(store, now);
    if (r.raised + r.resolved > 0) log.info(r, 'heartbeat deadlines');
  });

  // Alerts held back by dependencies: due holds only (an index), decided from each source's direct
  // dependencies and stored by compare-and-set (domain/dependencies/dependency-holds.ts).
  every(config.heartbeat_check_ms, 'dependency-holds', async (now) => {
    const r = await decideDueHolds(store, (ws, at) => coverNow(store, ws, at), now);
    if (r.raised + r.suppressed > 0) log.info(r, 'held alerts decided');
  });
  // Dependency timelines are kept SOURCE_EVENT_RETENTION_DAYS days.
  every(60_000, 'prune-source-events', async (now) => {
    const before = new Date(now.getTime() - SOURCE_EVENT_RETENTION_DAYS * 86_400_000);
    for (let i = 0; i < 100; i++) if ((await store.pruneSourceEvents(before, 1000)) < 1000) break;
  });

  // Status pages that ask for it: a draft incident for each linked monitor that went down (one per
  // outage, by the store's unique key, so every replica can run this at once).
  every(config.status_auto_draft_ms, 'status-page-drafts', async (now) => {
    const opened = await openAutoDrafts(store, now);
    if (opened > 0) log.info({ opened }, 'draft incidents opened on status pages');
  });

  // Custom domains: new ones checked on the next pass, each checked one again hourly; a verified one is
  // dropped (no longer served) after three failed checks in a row (domain/status-pages/custom-domain-proof.ts).
  const dns = deps.domainLookup;
  const service = config.service_domain.toLowerCase();
  every(config.custom_domain_check_ms, 'custom-domains', async (now) => {
    const r = await recheckDomains(
      store,
      dns,
      async (id) => {
        const ws = await store.getWorkspace(id);
        return ws ? `${ws.subdomain}.${service}` : null;
      },
      now,
    );
    if (r.dropped > 0) log.warn(r, 'custom domains dropped: their DNS proof is gone');
  });

  // A region whose monitors nobody checks raises one alert per workspace, not one per monitor; one
  // per workspace and type when no agent there can run a type (the watch remembers those pairs).
  const { catalog } = deps;
  const capabilityWatch = createCapabilityWatch();
  every(config.region_check_ms, 'region-health', (now) =>
    checkRegions(
      store,
      config.regions,
      now,
      config.agent_live_seconds * 1000,
      catalog
        ? async (region) => {
            await catalog.ready();
            return catalog.region(region).values();
          }
        : undefined,
      capabilityWatch,
    ),
  );

  // Acknowledge links past their expiry (refused already; this frees the rows).
  every(60_000, 'prune-ack-links', (now) => store.pruneAckLinks(now, 10_000));

  // Calendar feeds no calendar has read for FEED_UNUSED_DAYS (and so those of deleted schedules and
  // departed users).
  every(3_600_000, 'prune-calendar-feeds', (now) =>
    store.pruneCalendarFeeds(new Date(now.getTime() - FEED_UNUSED_DAYS * 86_400_000), 10_000),
  );

  // SAML assertions past their expiry: a replay of one is refused by its timing already.
  every(60_000, 'prune-saml-assertions', (now) => store.pruneSamlAssertions(now, 10_000));

  // One-off maintenance windows ended long ago (history the list shows for a year and a bit).
  every(3_600_000, 'prune-maintenance-windows', (now) =>
    store.pruneMaintenanceWindows(new Date(now.getTime() - ENDED_WINDOW_DAYS * 86_400_000), 10_000),
  );

  // Escalation: due steps, each claimed by compare-and-set, so every replica can run this at once.
  const escalations = createEscalationRunner({
    store,
    clock,
    dispatcher: deps.dispatcher,
    leaseMs: config.escalation_lease_seconds * 1000,
    ...(deps.workspaceUrl ? { workspaceUrl: deps.workspaceUrl } : {}),
    contactServices: deps.contactServices,
    grouping: {
      waitMs: config.notify_group_wait_seconds * 1000,
      intervalMs: config.notify_group_interval_seconds * 1000,
    },
    onError: (err, alertId) => log.error({ err, alert: alertId }, 'escalation step failed'),
  });
  every(config.escalation_poll_ms, 'escalations', () => escalations.tick());
  // Acknowledged and resolved alerts, told to everyone they reached (each claimed by compare-and-set).
  every(config.escalation_poll_ms, 'alert-follow-ups', () => escalations.followTick());
  // Grouped notifications whose window has ended (domain/escalation/group-window.ts), claimed the same way.
  every(config.escalation_poll_ms, 'notification-groups', () => escalations.groupTick());
  // Groups idle for a day: their window has long ended, so nothing they hold is needed.
  every(60_000, 'prune-notification-groups', (now) =>
    store.pruneNotificationGroups(new Date(now.getTime() - 86_400_000), 10_000),
  );

  // Handoff notices: only schedules whose cursor has come (an index), each claimed by compare-and-set,
  // each notice claimed by its unique key (domain/oncall/handoff-notices.ts).
  every(config.escalation_poll_ms, 'handoff-notices', (now) =>
    runHandoffNotices({ store, dispatcher: deps.dispatcher, services: deps.contactServices }, now, {
      leaseMs: config.escalation_lease_seconds * 1000,
    }),
  );
  every(3_600_000, 'prune-handoff-notices', (now) =>
    store.pruneHandoffNotices(new Date(now.getTime() - HANDOFF_NOTICE_RETENTION_DAYS * 86_400_000), 10_000),
  );

  // The monthly SLA report by mail: from 06:00 UTC on the 1st, each due workspace's month claimed by
  // compare-and-set and mailed once, a few workspaces a pass (domain/reports/monthly-report.ts).
  const reportBuilder = slaReportBuilder(store);
  const reportMailer = accountMailer(deps.mail);
  every(config.report_mail_poll_ms, 'monthly-reports', async (now) => {
    const r = await runMonthlyReports(
      {
        store,
        build: reportBuilder,
        send: reportMailer,
        workspaceUrl: deps.workspaceUrl ?? (() => ''),
        onError: (err, at) => log.error({ err, ...at }, 'monthly report mail failed'),
      },
      now,
    );
    if (r.claimed > 0) log.info(r, 'monthly reports mailed');
  });

  return {
    stop() {
      escalations.stop();
      for (const t of timers) clearInterval(t);
    },
  };
};
