/**
 * Confirmation mail per recipient across the whole service (domain/status-pages/recipients.ts): one
 * row per normalised address (its SHA-256), the start of its window and the mails counted in it.
 */
export default [
  `CREATE TABLE status_recipient_budgets (recipient TEXT PRIMARY KEY, window_start INTEGER NOT NULL,
       count INTEGER NOT NULL) STRICT`,
  'CREATE INDEX status_recipient_budgets_window ON status_recipient_budgets (window_start)',
];
