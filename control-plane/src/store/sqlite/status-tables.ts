/**
 * Table layouts of the status pages and their subscribers (tables.ts re-exports them; the same rules
 * hold: a new column goes here and into a new migration).
 */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Status pages (domain/status-pages/status-page-store.ts); components as JSON, in order. */
export const statusPages = table('status_pages', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  slug: 'text',
  custom_domain: 'text',
  custom_domain_token: 'text',
  custom_domain_status: 'text',
  custom_domain_checked_at: 'date',
  custom_domain_failures: 'int',
  custom_domain_error: 'text',
  visibility: 'text',
  password_hash: 'text',
  cookie_secret: 'text',
  accent_color: 'text',
  auto_draft_incidents: 'bool',
  components: 'json',
  created_at: 'date',
  updated_at: 'date',
});

/** Status page incidents with their updates (JSON, oldest first). */
export const statusIncidents = table('status_incidents', {
  id: 'text',
  workspace_id: 'text',
  page_id: 'text',
  title: 'text',
  status: 'text',
  published: 'bool',
  auto_key: 'text',
  components: 'json',
  updates: 'json',
  postmortem: 'text',
  created_at: 'date',
  updated_at: 'date',
  resolved_at: 'date',
  version: 'int',
});

/** Status page subscribers (tokens only as hashes; the unsubscribe token also sealed). */
export const statusSubscribers = table('status_subscribers', {
  id: 'text',
  workspace_id: 'text',
  page_id: 'text',
  email: 'text',
  status: 'text',
  confirm_hash: 'text',
  confirm_expires_at: 'date',
  confirm_sent_at: 'date',
  unsubscribe_hash: 'text',
  unsubscribe_sealed: 'text',
  created_at: 'date',
  confirmed_at: 'date',
});

/** Incident updates waiting to be fanned out to subscribers. */
export const statusMailEvents = table('status_mail_events', {
  id: 'text',
  workspace_id: 'text',
  page_id: 'text',
  incident_id: 'text',
  created_at: 'date',
});

/** The subscribers' outbox: one row per mail to send. */
export const statusMailOutbox = table('status_mail_outbox', {
  id: 'text',
  workspace_id: 'text',
  page_id: 'text',
  subscriber_id: 'text',
  kind: 'text',
  incident_id: 'text',
  update_id: 'text',
  due_at: 'date',
  attempts: 'int',
  created_at: 'date',
});
