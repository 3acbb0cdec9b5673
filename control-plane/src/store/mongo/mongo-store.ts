import { type Store, StoreMissingError } from '../port.js';
import { ackLinkIndexes, mongoAckLinks } from './ack-links.js';
import { agentIndexes, mongoAgents } from './agents.js';
import { alertIndexes, mongoAlerts } from './alerts.js';
import { auditIndexes, mongoAudit } from './audit.js';
import { calendarFeedIndexes, mongoCalendarFeeds } from './calendar-feeds.js';
import { contactMethodIndexes, mongoContactMethods } from './contact-methods.js';
import { connect, ensureIndexes, type MongoOptions, requireReplicaSet } from './db.js';
import { backfillDependsOn, dependencyIndexes, mongoDependencies } from './dependencies.js';
import { groupIndexes, mongoGroups } from './groups.js';
import { handoffNoticeIndexes, mongoHandoffNotices } from './handoff-notices.js';
import { backfillHeartbeats, heartbeatIndexes, mongoHeartbeats } from './heartbeats.js';
import { integrationIndexes, mongoIntegrations } from './integrations.js';
import { mongoMailSettings } from './mail-settings.js';
import { memberIndexes, mongoMembers } from './members.js';
import { backfillListOrder } from './monitor-list.js';
import { mongoMonitorStatus } from './monitor-status.js';
import {
  backfillCheckSettings,
  backfillLabels,
  backfillRetryIntervals,
  mongoMonitors,
  monitorIndexes,
  seedFeedCounter,
  seedMonitorCounts,
} from './monitors.js';
import { mongoNotificationGroups, notificationGroupIndexes } from './notification-groups.js';
import { mongoOAuth, oauthIndexes } from './oauth.js';
import { mongoPasskeys, passkeyIndexes } from './passkeys.js';
import { mongoPasswordResets, passwordResetIndexes } from './password-resets.js';
import { mongoPingKeys, pingKeyIndexes } from './ping-keys.js';
import { mongoReportSchedules, reportScheduleIndexes } from './report-schedules.js';
import { backfillRollups, mongoResults, resultIndexes } from './results.js';
import { mongoRouting, routingIndexes } from './routing.js';
import { mongoSamlReplay, samlReplayIndexes } from './saml-replay.js';
import { mongoSchedulePolicies } from './schedule-policies.js';
import { mongoSchedules, scheduleIndexes } from './schedules.js';
import { mongoScriptRuns, scriptRunIndexes } from './script-runs.js';
import { mongoSecondFactors, secondFactorIndexes } from './second-factors.js';
import { mongoSecrets, secretIndexes } from './secrets.js';
import { mongoSessions, sessionIndexes } from './sessions.js';
import { mongoSignIns, signInIndexes } from './sign-ins.js';
import { mongoSso } from './sso.js';
import { mongoStatusPages, statusPageIndexes } from './status-pages.js';
import { mongoStatusSubscribers, statusSubscriberIndexes } from './status-subscribers.js';
import { mongoTenancy, tenancyIndexes } from './tenancy.js';
import { describeMongoStore } from './uri.js';

export type { MongoOptions } from './db.js';

/**
 * The production store: MongoDB through the official driver, one module per port over one shared
 * context (db.ts). init connects, refuses a standalone server (transactions need a replica set),
 * creates the indexes (dropping superseded ones), backfills old heartbeats and the uptime rollups of
 * results stored before them, and seeds the feed counter and the workspaces' monitor counts.
 */
export const createMongoStore = (opts: MongoOptions): Store => {
  const { client, ctx } = connect(opts);
  return {
    kind: 'mongodb',
    async init() {
      await client.connect();
      requireReplicaSet(await client.db('admin').command({ hello: 1 }));
      if (opts.mustExist) {
        // Before the indexes below, which would create the collections (and so the database).
        const db = client.db(opts.dbName ?? 'lookout');
        const found = await db
          .listCollections({ name: 'workspaces' }, { nameOnly: true, authorizedCollections: true })
          .toArray();
        if (found.length === 0) throw new StoreMissingError(describeMongoStore(opts.uri, db.databaseName));
      }
      await ensureIndexes(ctx.col, [
        ...tenancyIndexes,
        ...monitorIndexes,
        ...resultIndexes,
        ...heartbeatIndexes,
        ...alertIndexes,
        ...routingIndexes,
        ...integrationIndexes,
        ...agentIndexes,
        ...sessionIndexes,
        ...passwordResetIndexes,
        ...oauthIndexes,
        ...memberIndexes,
        ...signInIndexes,
        ...passkeyIndexes,
        ...statusPageIndexes,
        ...ackLinkIndexes,
        ...dependencyIndexes,
        ...contactMethodIndexes,
        ...pingKeyIndexes,
        ...statusSubscriberIndexes,
        ...groupIndexes,
        ...notificationGroupIndexes,
        ...calendarFeedIndexes,
        ...samlReplayIndexes,
        ...scheduleIndexes,
        ...handoffNoticeIndexes,
        ...scriptRunIndexes,
        ...secretIndexes,
        ...auditIndexes,
        ...secondFactorIndexes,
        ...reportScheduleIndexes,
      ]);
      await backfillHeartbeats(ctx.col);
      await backfillRollups(ctx.col);
      await seedFeedCounter(ctx.col);
      await seedMonitorCounts(ctx.col);
      await backfillListOrder(ctx.col);
      await backfillRetryIntervals(ctx.col);
      await backfillDependsOn(ctx.col);
      await backfillLabels(ctx.col);
      await backfillCheckSettings(ctx.col);
    },
    async ping() {
      await client.db('admin').command({ ping: 1 });
    },
    async close() {
      await client.close();
    },
    ...mongoTenancy(ctx),
    ...mongoAckLinks(ctx),
    ...mongoDependencies(ctx),
    ...mongoContactMethods(ctx),
    ...mongoMonitors(ctx),
    ...mongoGroups(ctx),
    ...mongoResults(ctx),
    ...mongoHeartbeats(ctx),
    ...mongoAlerts(ctx),
    ...mongoRouting(ctx),
    ...mongoIntegrations(ctx),
    ...mongoAgents(ctx),
    ...mongoSessions(ctx),
    ...mongoPasswordResets(ctx),
    ...mongoSignIns(ctx),
    ...mongoPasskeys(ctx),
    ...mongoOAuth(ctx),
    ...mongoMembers(ctx),
    ...mongoMonitorStatus(ctx),
    ...mongoMailSettings(ctx),
    ...mongoStatusPages(ctx),
    ...mongoPingKeys(ctx),
    ...mongoStatusSubscribers(ctx),
    ...mongoNotificationGroups(ctx),
    ...mongoCalendarFeeds(ctx),
    ...mongoSamlReplay(ctx),
    ...mongoSchedules(ctx),
    ...mongoHandoffNotices(ctx),
    ...mongoSchedulePolicies(ctx),
    ...mongoScriptRuns(ctx),
    ...mongoSso(ctx),
    ...mongoSecrets(ctx),
    ...mongoAudit(ctx),
    ...mongoSecondFactors(ctx),
    ...mongoReportSchedules(ctx),
  };
};
