import { describe, expect, it } from 'vitest';
import {
  afterCheck,
  type DomainLookup,
  FAILURES_TO_DROP,
  findProof,
  freshProof,
} from './custom-domain-proof.js';
import type { StatusPage } from './status-page-store.js';

const T = new Date('2026-06-01T12:00:00Z');
const page = (over: Partial<StatusPage>) =>
  ({
    custom_domain: 'status.acme.test',
    ...freshProof('status.acme.test'),
    custom_domain_token: 't1',
    ...over,
  }) as StatusPage;
const lookup = (txt: Record<string, string[]>, cname: Record<string, string[]>): DomainLookup => ({
  txt: async (n) => txt[n] ?? [],
  cname: async (n) => cname[n] ?? [],
});
const down: DomainLookup = {
  txt: () => Promise.reject(new Error('ETIMEOUT')),
  cname: () => Promise.reject(new Error('ETIMEOUT')),
};

describe('custom domain proof', () => {
  it.each([
    [
      'the TXT record with the token',
      lookup({ '_lookout-challenge.status.acme.test': ['lookout-verification=t1'] }, {}),
      null,
    ],
    [
      'a CNAME to the workspace host (any case, trailing dot)',
      lookup({}, { 'status.acme.test': ['ACME.lookout.test.'] }),
      null,
    ],
    [
      'another token',
      lookup({ '_lookout-challenge.status.acme.test': ['lookout-verification=t2'] }, {}),
      /Neither TXT/,
    ],
    [
      'a TXT at the domain itself',
      lookup({ 'status.acme.test': ['lookout-verification=t1'] }, {}),
      /Neither TXT/,
    ],
    [
      'a CNAME to another workspace',
      lookup({}, { 'status.acme.test': ['other.lookout.test'] }),
      /Neither TXT/,
    ],
    [
      'a CNAME to the bare service domain',
      lookup({}, { 'status.acme.test': ['lookout.test'] }),
      /Neither TXT/,
    ],
    ['no answer at all', down, /did not answer/],
  ])('%s', async (_what, dns, expected) => {
    const problem = await findProof(dns, 'status.acme.test', 't1', 'acme.lookout.test');
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it('found: verified; missing: a new domain fails at once, a verified one after FAILURES_TO_DROP in a row', () => {
    expect(afterCheck(page({}), null, T)).toMatchObject({
      custom_domain_status: 'verified',
      custom_domain_failures: 0,
    });
    expect(afterCheck(page({}), 'gone', T)).toMatchObject({
      custom_domain_status: 'failed',
      custom_domain_failures: 1,
    });
    let p = page({ custom_domain_status: 'verified' });
    const seen: string[] = [];
    for (let i = 0; i < FAILURES_TO_DROP; i++) {
      p = { ...p, ...afterCheck(p, 'gone', T) };
      seen.push(`${p.custom_domain_status}:${p.custom_domain_failures}`);
    }
    expect(seen).toEqual(['verified:1', 'verified:2', 'failed:3']);
    expect(afterCheck(p, null, T)).toMatchObject({
      custom_domain_status: 'verified',
      custom_domain_failures: 0,
      custom_domain_error: null,
      custom_domain_checked_at: T,
      custom_domain_token: p.custom_domain_token,
    });
  });
});
