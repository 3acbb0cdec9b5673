import { randomBytes } from 'node:crypto';
import { AppError } from '@lookout/shared';
import type { CustomDomainProof, StatusPage, StatusPageStore } from './status-page-store.js';

/**
 * Proof that whoever controls a custom domain's DNS wants it on this page, before the page is served
 * there or `/_tls/ask` lets a certificate be fetched for it. Either record proves it:
 *
 * - TXT `_lookout-challenge.<domain>` = `lookout-verification=<the page's token>` (random per page
 *   and per domain set), or
 * - CNAME `<domain>` → `<subdomain>.<service domain>`, the workspace's own host.
 *
 * A verified domain is re-checked every hour; it stops being served after FAILURES_TO_DROP failed
 * checks in a row (2 to 3 hours after its record went), so a DNS hiccup does not take a page down.
 */
export const CHALLENGE_LABEL = '_lookout-challenge';
export const TXT_PREFIX = 'lookout-verification=';
export const RECHECK_MS = 60 * 60_000;
export const FAILURES_TO_DROP = 3;
/** `POST …/custom-domain/verify` asks DNS at most this often per page. */
export const VERIFY_SPACING_MS = 10_000;

/** What the control plane asks DNS (an adapter over the configured resolvers: dns-lookup.ts). */
export interface DomainLookup {
  /** The TXT strings at `name` (each record's chunks joined); [] when there are none. */
  txt(name: string): Promise<string[]>;
  /** The CNAME targets of `name`, lower case without the trailing dot; [] when there is none. */
  cname(name: string): Promise<string[]>;
}

export const TAKEN = 'Another status page has proved this domain already: remove it there first.';

export const newDomainToken = () => randomBytes(16).toString('hex');

/** The state of a domain just set on a page (nothing checked yet); null without a domain. */
export const freshProof = (domain: string | null): CustomDomainProof =>
  domain === null
    ? {
        custom_domain_token: null,
        custom_domain_status: null,
        custom_domain_checked_at: null,
        custom_domain_failures: 0,
        custom_domain_error: null,
      }
    : {
        custom_domain_token: newDomainToken(),
        custom_domain_status: 'pending',
        custom_domain_checked_at: null,
        custom_domain_failures: 0,
        custom_domain_error: null,
      };

/** The page is served on its custom domain (and `/_tls/ask` says yes) only while this holds. */
export const domainVerified = (page: StatusPage) =>
  page.custom_domain !== null && page.custom_domain_status === 'verified';

/** The records that prove the domain (either one), as the owner types them into their DNS. */
export const proofRecords = (domain: string, token: string, workspaceHost: string) => [
  { type: 'TXT' as const, name: `${CHALLENGE_LABEL}.${domain}`, value: `${TXT_PREFIX}${token}` },
  { type: 'CNAME' as const, name: domain, value: workspaceHost },
];

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Asks DNS for either record; `null` when one is there, else why not (shown to the page's team). */
export const findProof = async (
  lookup: DomainLookup,
  domain: string,
  token: string,
  workspaceHost: string,
): Promise<string | null> => {
  const [txt, cname] = await Promise.all([
    lookup.txt(`${CHALLENGE_LABEL}.${domain}`).catch((e: Error) => e),
    lookup.cname(domain).catch((e: Error) => e),
  ]);
  if (Array.isArray(txt) && txt.some((t) => t.trim() === `${TXT_PREFIX}${token}`)) return null;
  if (Array.isArray(cname) && cname.some((c) => bare(c) === bare(workspaceHost))) return null;
  if (txt instanceof Error && cname instanceof Error)
    return 'The DNS servers did not answer; Lookout will try again.';
  return `Neither TXT ${CHALLENGE_LABEL}.${domain} "${TXT_PREFIX}${token}" nor CNAME ${domain} → ${workspaceHost} was found.`;
};

/** The state after one check: found → verified; missing → failed, except a verified domain's grace. */
export const afterCheck = (page: StatusPage, problem: string | null, now: Date): CustomDomainProof => {
  const failures = problem === null ? 0 : page.custom_domain_failures + 1;
  const status =
    problem === null
      ? 'verified'
      : page.custom_domain_status === 'verified' && failures < FAILURES_TO_DROP
        ? 'verified'
        : 'failed';
  return {
    custom_domain_token: page.custom_domain_token ?? newDomainToken(),
    custom_domain_status: status,
    custom_domain_checked_at: now,
    custom_domain_failures: failures,
    custom_domain_error: problem,
  };
};

type ProofStore = Pick<StatusPageStore, 'recordDomainCheck'>;

/** Checks one page's domain now and stores the result (unless the domain changed meanwhile). */
export const checkPageDomain = async (
  store: ProofStore,
  lookup: DomainLookup,
  page: StatusPage,
  workspaceHost: string,
  now: Date,
): Promise<StatusPage> => {
  if (page.custom_domain === null) return page;
  // A page stored before proofs existed has no token yet: it gets one with its first check.
  const token = page.custom_domain_token ?? newDomainToken();
  const problem = await findProof(lookup, page.custom_domain, token, workspaceHost);
  const expected = { custom_domain: page.custom_domain, custom_domain_token: page.custom_domain_token };
  let next = afterCheck({ ...page, custom_domain_token: token }, problem, now);
  let stored: boolean;
  try {
    stored = await store.recordDomainCheck(page.workspace_id, page.id, expected, next);
  } catch (e) {
    if (!(e instanceof AppError && e.code === 'conflict')) throw e;
    // Its record is there, but another page (of the same workspace, by CNAME) proved the domain first.
    next = afterCheck({ ...page, custom_domain_token: token, custom_domain_status: 'pending' }, TAKEN, now);
    stored = await store.recordDomainCheck(page.workspace_id, page.id, expected, next);
  }
  return stored ? { ...page, ...next } : page;
};

/** `POST …/custom-domain/verify`: the check, at most once per VERIFY_SPACING_MS a page. */
export const verifyPageDomain = async (
  store: ProofStore,
  lookup: DomainLookup,
  page: StatusPage,
  workspaceHost: string,
  now: Date,
): Promise<StatusPage> => {
  if (page.custom_domain === null)
    throw new AppError('validation_failed', 'This page has no custom domain to verify.', [
      { field: 'custom_domain', message: 'is not set on this page' },
    ]);
  const last = page.custom_domain_checked_at?.getTime();
  if (last !== undefined && now.getTime() - last < VERIFY_SPACING_MS) {
    const retryAfterSeconds = Math.ceil((last + VERIFY_SPACING_MS - now.getTime()) / 1000);
    throw new AppError('rate_limited', `Checked a moment ago; try again in ${retryAfterSeconds} s.`, [], {
      retryAfterSeconds,
    });
  }
  return checkPageDomain(store, lookup, page, workspaceHost, now);
};

/**
 * The periodic re-check (jobs.ts): pages whose domain was last checked over RECHECK_MS ago (or never),
 * oldest first, at most `limit` a pass. Safe on every replica at once: each result is written by
 * compare-and-set on the domain and token, and a doubled check stores the same answer.
 */
export const recheckDomains = async (
  store: ProofStore & Pick<StatusPageStore, 'listDomainsDue'>,
  lookup: DomainLookup,
  workspaceHost: (workspaceId: string) => Promise<string | null>,
  now: Date,
  limit = 100,
) => {
  const due = await store.listDomainsDue(new Date(now.getTime() - RECHECK_MS), limit);
  const counts = { checked: 0, dropped: 0 };
  for (const page of due) {
    const host = await workspaceHost(page.workspace_id);
    if (host === null) continue;
    const next = await checkPageDomain(store, lookup, page, host, now);
    counts.checked++;
    if (page.custom_domain_status === 'verified' && next.custom_domain_status === 'failed') counts.dropped++;
  }
  return counts;
};
