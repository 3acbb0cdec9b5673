import { useEffect, useState } from 'preact/hooks';
import { api, type Member } from '../api.js';
import { formatDateTime, fromNow } from '../format.js';
import { ErrorBox } from '../kit/error-box.js';

const failures = (n: number) => `${n} failed sign-in${n === 1 ? '' : 's'}`;

/** "3 minutes ago from 203.0.113.9", with the exact time on hover. */
const LastFailure = (props: { m: Member }) => {
  const f = props.m.failed_sign_ins;
  if (!f.last_at) return null;
  return (
    <span title={formatDateTime(f.last_at)}>
      {fromNow(f.last_at)}
      {f.last_address && (
        <>
          {' '}
          from <code>{f.last_address}</code>
        </>
      )}
    </span>
  );
};

/**
 * The Users table's cell: the latest failed sign-ins in a row (a run ends at the user's next sign-in
 * and stays shown until a new failure starts another), the last one's time and address, and when the
 * user last signed in.
 */
export const SignInsCell = (props: { m: Member }) => {
  const { m } = props;
  const f = m.failed_sign_ins;
  return (
    <span>
      {f.count > 0 ? <strong>{failures(f.count)}</strong> : <span class="muted">No failed sign-ins</span>}
      {f.count > 0 && (
        <span class="muted block small">
          last <LastFailure m={m} />
        </span>
      )}
      <span class="muted block small">
        {m.last_sign_in_at ? (
          <span title={formatDateTime(m.last_sign_in_at)}>signed in {fromNow(m.last_sign_in_at)}</span>
        ) : (
          'never signed in with a password'
        )}
      </span>
    </span>
  );
};

/** The password page's account of your own sign-ins: are you being guessed at? */
export const SignInActivity = () => {
  const [me, setMe] = useState<Member | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .myAccount()
      .then(setMe)
      .catch((e) => setError(e instanceof Error ? e.message : 'Your sign-ins could not be loaded.'));
  }, []);
  if (error) return <ErrorBox message={error} />;
  if (!me) return null;
  const f = me.failed_sign_ins;
  return (
    <section aria-labelledby="sign-ins-title">
      <h2 id="sign-ins-title">Sign-in activity</h2>
      {f.count > 0 && (
        <p class="notice">
          Not you? Someone may be guessing your password: choose a long one that you use nowhere else. Their
          attempts never hold back a browser you have signed in with before, such as this one.
        </p>
      )}
      <dl class="facts">
        <div>
          <dt>Failed sign-ins</dt>
          <dd>
            {f.count === 0
              ? 'None'
              : f.since
                ? `${f.count} since your sign-in of ${formatDateTime(f.since)}`
                : String(f.count)}
          </dd>
        </div>
        {f.count > 0 && (
          <div>
            <dt>Last failed</dt>
            <dd>
              <LastFailure m={me} />
            </dd>
          </div>
        )}
        <div>
          <dt>Last signed in</dt>
          <dd>
            {me.last_sign_in_at ? (
              <span title={formatDateTime(me.last_sign_in_at)}>{fromNow(me.last_sign_in_at)}</span>
            ) : (
              'Not with a password yet'
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
};
