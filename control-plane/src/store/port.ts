import type { MemberStore } from '../domain/access/member-store.js';
import type { OAuthStore } from '../domain/access/oauth-store.js';
import type { PasskeyStore } from '../domain/access/passkey-store.js';
import type { PasswordResetStore } from '../domain/access/password-reset.js';
import type { SamlReplayStore } from '../domain/access/saml-replay-store.js';
import type { SecondFactorStore } from '../domain/access/second-factor-store.js';
import type { SessionStore } from '../domain/access/sessions.js';
import type { SignInStore } from '../domain/access/sign-in-store.js';
import type { SsoStore } from '../domain/access/sso.js';
import type { AgentStore } from '../domain/agents/agent-store.js';
import type { AckLinkStore } from '../domain/alerts/ack-link-store.js';
import type { AlertHoldStore } from '../domain/alerts/alert-hold-store.js';
import type { AlertStore } from '../domain/alerts/alert-store.js';
import type { AuditStore } from '../domain/audit/audit-store.js';
import type { ContactMethodStore } from '../domain/contacts/contact-method-store.js';
import type { EscalationPolicyStore } from '../domain/escalation/escalation-policy-store.js';
import type { NotificationGroupStore } from '../domain/escalation/notification-group-store.js';
import type { HeartbeatStore } from '../domain/heartbeats/heartbeat-store.js';
import type { PingKeyStore } from '../domain/heartbeats/ping-key-store.js';
import type { IntegrationStore } from '../domain/integrations/integration-store.js';
import type { MaintenanceWindowStore } from '../domain/maintenance/maintenance-store.js';
import type { DependencyGraphLookup } from '../domain/monitors/depends-on.js';
import type { GroupStore } from '../domain/monitors/group-store.js';
import type { MonitorStatusStore } from '../domain/monitors/monitor-status.js';
import type { MonitorStore } from '../domain/monitors/monitor-store.js';
import type { ChannelStore } from '../domain/notifications/channel-store.js';
import type { MailSettingsStore } from '../domain/notifications/mail-settings-store.js';
import type { CalendarFeedStore } from '../domain/oncall/calendar-feed-store.js';
import type { HandoffNoticeStore } from '../domain/oncall/handoff-notice-store.js';
import type { SchedulePolicyLookup } from '../domain/oncall/schedule-policy-lookup.js';
import type { ScheduleStore } from '../domain/oncall/schedule-store.js';
import type { ReportScheduleStore } from '../domain/reports/report-schedule-store.js';
import type { ResultStore } from '../domain/results/result-store.js';
import type { ScriptRunStore } from '../domain/results/script-run-store.js';
import type { SecretStore } from '../domain/secrets/secret-store.js';
import type { StatusPageStore } from '../domain/status-pages/status-page-store.js';
import type { StatusSubscriberStore } from '../domain/status-pages/subscriber-store.js';
import type { TenancyStore } from '../domain/tenancy/tenancy-store.js';

/**
 * What an adapter opened with `mustExist` throws (from its factory or `init`) when no store has been
 * made where it looked: `where` names the place (the SQLite file, or the MongoDB database and hosts,
 * never credentials). Opened without it, an adapter creates its store.
 */
export class StoreMissingError extends Error {
  readonly code = 'store_missing';
  constructor(readonly where: string) {
    super(`no Lookout store at ${where}`);
  }
}

/** Opening, probing and closing a store, whatever its records. */
export interface StoreLifecycle {
  readonly kind: 'sqlite' | 'mongodb';
  /** Creates tables/indexes and runs migrations. Idempotent. */
  init(): Promise<void>;
  /** Cheap round trip for readiness. Throws when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A whole store: one port per aggregate, each declared in the domain that uses it
 * (`domain/*-store.ts`), each domain-shaped (every method is one business operation, atomic on its
 * own, so that several control-plane replicas on one store stay correct). Domain functions take only
 * the ports they use; the process wiring (main.ts, the CLI, tests) holds the whole store. Adapters:
 * SQLite (`store/sqlite/`) and MongoDB (`store/mongo/`), one file per port, both held to the contract
 * suites.
 */
export type Store = StoreLifecycle &
  TenancyStore &
  MonitorStore &
  GroupStore &
  ResultStore &
  ScriptRunStore &
  HeartbeatStore &
  AlertStore &
  EscalationPolicyStore &
  ChannelStore &
  MaintenanceWindowStore &
  IntegrationStore &
  AgentStore &
  SessionStore &
  PasswordResetStore &
  SignInStore &
  PasskeyStore &
  OAuthStore &
  MemberStore &
  MonitorStatusStore &
  MailSettingsStore &
  StatusPageStore &
  AckLinkStore &
  AlertHoldStore &
  DependencyGraphLookup &
  ContactMethodStore &
  PingKeyStore &
  StatusSubscriberStore &
  NotificationGroupStore &
  ScheduleStore &
  HandoffNoticeStore &
  SchedulePolicyLookup &
  CalendarFeedStore &
  SamlReplayStore &
  SecretStore &
  SsoStore &
  AuditStore &
  SecondFactorStore &
  ReportScheduleStore;
