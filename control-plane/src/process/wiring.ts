import type { Clock, SecretBox } from '@lookout/shared';
import { createSecretBox } from '@lookout/shared';
import type { Config } from '../config.js';
import type { ContactServices } from '../domain/contacts/contact-methods.js';
import { createResultCover } from '../domain/maintenance/result-cover.js';
import { createMonitorCatalog, type MonitorCatalog } from '../domain/monitors/monitor-catalog.js';
import type { MonitorSlots } from '../domain/monitors/monitor-slots.js';
import type { MailSettingsStore } from '../domain/notifications/mail-settings-store.js';
import type { Dispatcher } from '../domain/notifications/messages.js';
import { touchingHandoffCursors } from '../domain/oncall/handoff-notices.js';
import type { CoverOfWorkspace } from '../domain/results/result-maintenance.js';
import type { DomainLookup } from '../domain/status-pages/custom-domain-proof.js';
import { contactServicesFromConfig } from '../notify/contact-services.js';
import { dispatcherFromConfig, mailRouterFromConfig } from '../notify/from-config.js';
import type { MailRouter } from '../notify/mail-route.js';
import type { Store } from '../store/port.js';
import { createDomainLookup } from './dns-lookup.js';
import { createMetrics, instrumentStore, type Metrics } from './metrics.js';

/**
 * The notification services every route, job and RPC service shares, built once from configuration:
 * the secret box (LOOKOUT_ENCRYPTION_KEY), the mail router (a workspace's own SMTP server, else the
 * deployment's), the dispatcher (every kind, retries, the SSRF guard), the deployment's accounts
 * behind contact methods, and the DNS lookup of custom-domain proofs.
 */
export interface SharedServices {
  box: SecretBox;
  mail: MailRouter;
  dispatcher: Dispatcher;
  contactServices: ContactServices;
  domainLookup: DomainLookup;
}

export const sharedServices = (config: Config, clock: Clock, store: MailSettingsStore): SharedServices => {
  const box = createSecretBox(config.encryption_key);
  const mail = mailRouterFromConfig(config, box, store);
  return {
    box,
    mail,
    dispatcher: dispatcherFromConfig(config, clock, { mail, box }),
    contactServices: contactServicesFromConfig(config),
    domainLookup: createDomainLookup(config.custom_domain_dns_servers),
  };
};

export interface Wiring extends SharedServices {
  /** The store as the process uses it: counted in the metrics (alerts raised, notifications sent). */
  store: Store;
  metrics: Metrics;
  /** This replica's monitors in memory, for the agent streams, ingestion and region health. */
  catalog: MonitorCatalog;
  /** Ingestion's maintenance test (a result's `in_maintenance`): the windows cached per workspace. */
  resultCover: CoverOfWorkspace;
}

/**
 * The one place the process builds what its parts share (process/server.ts calls it once); each route,
 * job and RPC service is handed the services and the store ports it uses, and builds none of its own.
 */
export const wire = (deps: {
  config: Config;
  store: Store;
  clock: Clock;
  /** The numbers the store gave monitor ids (main.ts), for the catalog and the agent streams to share. */
  monitorSlots?: MonitorSlots | undefined;
}): Wiring => {
  const metrics = createMetrics();
  // Schedule writes also move the schedule's handoff-notice cursor (domain/oncall/handoff-notices.ts).
  const store = touchingHandoffCursors(instrumentStore(deps.store, metrics), () => deps.clock.now());
  return {
    store,
    metrics,
    catalog: createMonitorCatalog(store, deps.monitorSlots),
    resultCover: createResultCover(store),
    ...sharedServices(deps.config, deps.clock, store),
  };
};
