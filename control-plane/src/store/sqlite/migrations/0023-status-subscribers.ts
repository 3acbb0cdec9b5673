/**
 * Status page subscribers (domain/status-pages/subscriber-store.ts): one per email and page; the
 * incident mail events written with the incident updates, and the outbox they fan out into (one row
 * per subscriber and update: its id is the idempotency key).
 */
export default [
  `CREATE TABLE status_subscribers (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       email TEXT NOT NULL, status TEXT NOT NULL, confirm_hash TEXT, confirm_expires_at INTEGER,
       confirm_sent_at INTEGER, unsubscribe_hash TEXT NOT NULL, unsubscribe_sealed TEXT NOT NULL,
       created_at INTEGER NOT NULL, confirmed_at INTEGER) STRICT`,
  'CREATE UNIQUE INDEX status_subscribers_email ON status_subscribers (page_id, email)',
  'CREATE INDEX status_subscribers_page ON status_subscribers (page_id, created_at DESC, id DESC)',
  'CREATE UNIQUE INDEX status_subscribers_unsubscribe ON status_subscribers (unsubscribe_hash)',
  'CREATE INDEX status_subscribers_confirm ON status_subscribers (confirm_hash) WHERE confirm_hash IS NOT NULL',
  "CREATE INDEX status_subscribers_pending ON status_subscribers (created_at) WHERE status = 'pending'",
  `CREATE TABLE status_mail_events (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       incident_id TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT`,
  `CREATE TABLE status_mail_outbox (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       subscriber_id TEXT NOT NULL, kind TEXT NOT NULL, incident_id TEXT, update_id TEXT,
       due_at INTEGER NOT NULL, attempts INTEGER NOT NULL, created_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX status_mail_outbox_due ON status_mail_outbox (due_at)',
  'CREATE INDEX status_mail_outbox_subscriber ON status_mail_outbox (subscriber_id)',
];
