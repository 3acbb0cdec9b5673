import { useState } from 'preact/hooks';
import { type StatusPage, statusApi } from '../../api-status.js';
import { formatDateTime } from '../../format.js';
import { ErrorBox } from '../../kit/error-box.js';
import { problemsOf } from '../../kit/field.js';

type DomainStatus = NonNullable<StatusPage['custom_domain_status']>;

const WORDS: Record<DomainStatus, { label: string; css: string }> = {
  verified: { label: 'Verified', css: 'verified' },
  pending: { label: 'Not checked yet', css: 'unverified' },
  failed: { label: 'Not verified', css: 'unverified' },
};

/** Where the page's custom domain stands, as a word in a badge (never colour alone). */
export const DomainBadge = (props: { status: DomainStatus }) => (
  <span class={`badge ${WORDS[props.status].css}`}>{WORDS[props.status].label}</span>
);

/**
 * The proof of the stored custom domain: its status, the exact records to create (either one), and
 * **Verify** to ask DNS now. Lookout serves the page there only once it is verified.
 */
export const CustomDomainProof = (props: { page: StatusPage; onChecked: (p: StatusPage) => void }) => {
  const { page } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!page.custom_domain || !page.custom_domain_status) return null;
  const status = page.custom_domain_status;
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      props.onChecked(await statusApi.verifyDomain(page.id));
    } catch (e) {
      const p = problemsOf(e);
      setError(p.form ?? Object.values(p).find(Boolean) ?? 'That did not work.');
    } finally {
      setBusy(false);
    }
  };
  const grace = status === 'verified' && page.custom_domain_failures > 0;
  const scheme = new URL(page.public_url).protocol;
  return (
    <section class="domain-proof" aria-labelledby="domain-proof-title">
      <h2 id="domain-proof-title">
        Domain ownership: {page.custom_domain} <DomainBadge status={status} />
      </h2>
      <p role="status">
        {status === 'verified' && !grace && `Lookout serves this page at ${scheme}//${page.custom_domain}/.`}
        {grace &&
          `The last ${page.custom_domain_failures === 1 ? 'check' : `${page.custom_domain_failures} checks`} found no record; the page stops being served there after 3 failed checks in a row (one an hour).`}
        {status === 'pending' && 'Not served there until one of the records below is found.'}
        {status === 'failed' && 'Not served there: no record below was found.'}
        {page.custom_domain_checked_at && ` Last checked ${formatDateTime(page.custom_domain_checked_at)}.`}
      </p>
      {page.custom_domain_error && status !== 'verified' && <p class="muted">{page.custom_domain_error}</p>}
      <p>
        {status === 'verified'
          ? `Keep one of these records in the DNS of ${page.custom_domain}:`
          : `Create one of these records in the DNS of ${page.custom_domain}, then press Verify:`}
      </p>
      <ul class="dns-records">
        {page.custom_domain_records.map((r) => (
          <li key={r.type}>
            <dl>
              <div>
                <dt>Type</dt>
                <dd>
                  <code>{r.type}</code>
                </dd>
              </div>
              <div>
                <dt>Name</dt>
                <dd>
                  <code>{r.name}</code>
                </dd>
              </div>
              <div>
                <dt>Value</dt>
                <dd>
                  <code>{r.value}</code>
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <p class="hint">
        Lookout checks a new domain within a minute and every domain again each hour; DNS changes can take a
        while to reach everyone.
      </p>
      <ErrorBox message={error} />
      <button type="button" class="button" disabled={busy} onClick={verify}>
        Verify
      </button>
    </section>
  );
};
