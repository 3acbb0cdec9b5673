import type { SqliteContext } from './db.js';
import initial from './migrations/0001-initial.js';
import agentsAndResults from './migrations/0002-agents-and-results.js';
import alertRouting from './migrations/0003-alert-routing.js';
import monitorFeed from './migrations/0004-monitor-feed.js';
import heartbeatDeadlinesAndIntegrations from './migrations/0005-heartbeat-deadlines-and-integrations.js';
import heartbeatRearm from './migrations/0006-heartbeat-rearm.js';
import sessions from './migrations/0007-sessions.js';
import oauthRecords from './migrations/0008-oauth-records.js';
import invitations from './migrations/0009-invitations.js';
import uptimeRollups from './migrations/0010-uptime-rollups.js';
import uptimeRollupMark from './migrations/0011-uptime-rollup-mark.js';
import connectedAppsIndex from './migrations/0012-connected-apps-index.js';
import signInDevices from './migrations/0013-sign-in-devices.js';
import mailSettings from './migrations/0014-mail-settings.js';
import workspaceMonitorCount from './migrations/0015-workspace-monitor-count.js';
import uniqueRunNowResults from './migrations/0016-unique-run-now-results.js';
import settledAlertsIndex from './migrations/0017-settled-alerts-index.js';
import deliveryRemoteId from './migrations/0018-delivery-remote-id.js';
import statusPages from './migrations/0019-status-pages.js';
import ackLinks from './migrations/0020-ack-links.js';
import contactMethods from './migrations/0021-contact-methods.js';
import cronHeartbeatsAndPingKeys from './migrations/0022-cron-heartbeats-and-ping-keys.js';
import statusSubscribers from './migrations/0023-status-subscribers.js';
import resultStates from './migrations/0024-result-states.js';
import recentResults from './migrations/0025-recent-results.js';
import monitorLevelSequence from './migrations/0026-monitor-level-sequence.js';
import statusRecipientBudgets from './migrations/0027-status-recipient-budgets.js';
import customDomainProof from './migrations/0028-custom-domain-proof.js';
import dropSettledAlertsIndex from './migrations/0029-drop-settled-alerts-index.js';
import monitorRetryInterval from './migrations/0030-monitor-retry-interval.js';
import codeSendCounters from './migrations/0031-code-send-counters.js';
import recurringMaintenance from './migrations/0032-recurring-maintenance.js';
import groupsAndTags from './migrations/0033-groups-and-tags.js';
import dependencies from './migrations/0034-dependencies.js';
import groupedNotificationsAndSupportHours from './migrations/0035-grouped-notifications-and-support-hours.js';
import monitorListOrder from './migrations/0036-monitor-list-order.js';
import checkTypeSettings from './migrations/0037-check-type-settings.js';
import agentCheckTypes from './migrations/0038-agent-check-types.js';
import schedules from './migrations/0039-schedules.js';
import handoffNotices from './migrations/0040-handoff-notices.js';
import calendarFeeds from './migrations/0041-calendar-feeds.js';
import secrets from './migrations/0042-secrets.js';
import scriptRuns from './migrations/0043-script-runs.js';
import auditLog from './migrations/0044-audit-log.js';
import ssoSettings from './migrations/0045-sso-settings.js';
import secondFactors from './migrations/0046-second-factors.js';
import passkeys from './migrations/0047-passkeys.js';
import passwordResets from './migrations/0048-password-resets.js';
import samlAssertions from './migrations/0049-saml-assertions.js';
import maintenanceAndLatencyRollups from './migrations/0050-maintenance-and-latency-rollups.js';
import reportSchedules from './migrations/0051-report-schedules.js';

/**
 * Ordered, append-only, self-contained: every migration is frozen SQL, never derived from the table
 * layouts in tables.ts (those describe the latest schema for reading and writing rows). One file per
 * migration in migrations/, named by its number and what it does; a migration's number is its position
 * in this list (schema_migrations records it). To add a column: add it to the layout in tables.ts, add
 * the next file (`ALTER TABLE … ADD COLUMN`) and append its line here; migrations.test.ts builds a database at every earlier step, migrates it, and checks that its rows
 * survive and that the schema has every layout column. Each runs once, inside the same IMMEDIATE
 * transaction that records it, so two processes starting on one file never run one twice. Never edit a
 * shipped migration: add one.
 */
export const migrations: string[][] = [
  initial,
  agentsAndResults,
  alertRouting,
  monitorFeed,
  heartbeatDeadlinesAndIntegrations,
  heartbeatRearm,
  sessions,
  oauthRecords,
  invitations,
  uptimeRollups,
  uptimeRollupMark,
  connectedAppsIndex,
  signInDevices,
  mailSettings,
  workspaceMonitorCount,
  uniqueRunNowResults,
  settledAlertsIndex,
  deliveryRemoteId,
  statusPages,
  ackLinks,
  contactMethods,
  cronHeartbeatsAndPingKeys,
  statusSubscribers,
  resultStates,
  recentResults,
  monitorLevelSequence,
  statusRecipientBudgets,
  customDomainProof,
  dropSettledAlertsIndex,
  monitorRetryInterval,
  codeSendCounters,
  recurringMaintenance,
  groupsAndTags,
  dependencies,
  groupedNotificationsAndSupportHours,
  monitorListOrder,
  checkTypeSettings,
  agentCheckTypes,
  schedules,
  handoffNotices,
  calendarFeeds,
  secrets,
  scriptRuns,
  auditLog,
  ssoSettings,
  secondFactors,
  passkeys,
  passwordResets,
  samlAssertions,
  maintenanceAndLatencyRollups,
  reportSchedules,
];

/**
 * Runs the migrations of `list` not yet recorded in `schema_migrations`, all in one IMMEDIATE
 * transaction. `list` is `migrations` except in tests (a database as an older release left it).
 */
export const migrate = ({ db, st, immediate }: SqliteContext, list: string[][] = migrations) => {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER)');
  immediate(() => {
    const done = (st('SELECT max(version) v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
    list.forEach((sqls, i) => {
      const version = i + 1;
      if (version <= done) return;
      for (const sql of sqls) db.exec(sql);
      st('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
    });
  });
};
