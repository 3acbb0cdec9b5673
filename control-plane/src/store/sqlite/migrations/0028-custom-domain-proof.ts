/**
 * Custom domains need proof of ownership (domain/status-pages/custom-domain-proof.ts): a token per
 * domain, the last check's result, and an index for the hourly re-check. Domains set before this
 * start pending (not served) with a fresh token, and are checked on the job's next pass. A domain is
 * unique among verified pages only: an unproved claim blocks nobody.
 */
export default [
  'ALTER TABLE status_pages ADD COLUMN custom_domain_token TEXT',
  'ALTER TABLE status_pages ADD COLUMN custom_domain_status TEXT',
  'ALTER TABLE status_pages ADD COLUMN custom_domain_checked_at INTEGER',
  'ALTER TABLE status_pages ADD COLUMN custom_domain_failures INTEGER NOT NULL DEFAULT 0',
  'ALTER TABLE status_pages ADD COLUMN custom_domain_error TEXT',
  `UPDATE status_pages SET custom_domain_token = lower(hex(randomblob(16))), custom_domain_status = 'pending'
       WHERE custom_domain IS NOT NULL`,
  `CREATE INDEX status_pages_domain_due ON status_pages (coalesce(custom_domain_checked_at, 0))
       WHERE custom_domain IS NOT NULL`,
  'DROP INDEX status_pages_domain',
  `CREATE UNIQUE INDEX status_pages_domain_verified ON status_pages (custom_domain)
       WHERE custom_domain_status = 'verified'`,
];
