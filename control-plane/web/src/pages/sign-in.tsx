import { useEffect, useState } from 'preact/hooks';
import { PAGES } from '../../../src/http/page-paths.js';
import { ApiError, api, type Me, type SecondFactorRequired } from '../api.js';
import { type SessionOptions, ssoApi } from '../api-sso.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Logo } from '../layout.js';
import { followLink } from '../router.js';
import { SAML_ERRORS } from './saml-errors.js';
import { SecondFactorStep } from './sign-in-code.js';
import { PasskeySignIn } from './sign-in-passkey.js';

/** Why single sign-on sent the browser back here (`?error=`; domain/access/sso.ts has the same words). */
export const SSO_ERRORS: Record<string, string> = {
  sso_not_configured: 'Single sign-on is not set up for this workspace.',
  sso_failed: 'Single sign-on did not complete. Try again, or ask an admin of the workspace.',
  sso_state_mismatch:
    'This sign-in link was already used or has expired. Start again with “Sign in with SSO”.',
  sso_denied: 'The identity provider did not sign you in.',
  sso_email_missing: 'The identity provider did not give an email address for your account.',
  sso_email_unverified:
    'The identity provider has not verified your email address. Verify it there, then try again.',
  sso_domain_not_allowed: 'Your email domain is not allowed to sign in to this workspace.',
  ...SAML_ERRORS,
};

const ssoError = () => {
  const code = new URLSearchParams(location.search).get('error');
  return code ? (SSO_ERRORS[code] ?? 'Single sign-on did not complete. Try again.') : null;
};

/** `/sign-in`: Sign in with SSO (when set up); Email, Password, Sign in. */
export const SignInPage = (props: { onSignedIn: (me: Me) => void }) => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(ssoError);
  const [busy, setBusy] = useState(false);
  const [options, setOptions] = useState<SessionOptions | null>(null);
  /** While SSO is enforced the password form is one click away, for break-glass admins. */
  const [withPassword, setWithPassword] = useState(false);
  useEffect(() => {
    ssoApi.options().then(setOptions, () => setOptions(null));
  }, []);
  const passwordShown = !options || options.password || withPassword;
  // A correct password of a user with a second factor: the code step (sign-in-code.tsx) takes over.
  const [challenge, setChallenge] = useState<SecondFactorRequired | null>(null);
  const workspace = location.hostname.split('.')[0] ?? '';
  // Back from a password reset (pages/reset-password.tsx).
  const [wasReset] = useState(() => new URLSearchParams(location.search).get('reset') === 'done');

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await api.signIn(email, password);
      if ('second_factor_required' in r) {
        setChallenge(r);
        setBusy(false);
      } else props.onSignedIn(r);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 422
          ? 'Enter your email and password.'
          : err instanceof Error
            ? err.message
            : 'Sign-in failed.',
      );
      setBusy(false);
    }
  };

  if (challenge)
    return (
      <SecondFactorStep
        challenge={challenge}
        onSignedIn={props.onSignedIn}
        onRestart={(message) => {
          setChallenge(null);
          setPassword('');
          setError(message);
        }}
      />
    );

  return (
    <main class="auth">
      <div class="auth-card">
        <div class="auth-brand">
          <Logo />
          <span>Lookout</span>
        </div>
        <h1>Sign in</h1>
        <p class="muted">
          to the <strong>{workspace}</strong> workspace
        </p>
        {wasReset && (
          <p class="ok-box" role="status">
            Your password has been changed and every session signed out. Sign in with the new one.
          </p>
        )}
        {options?.sso && (
          <div class="sso">
            <ErrorSummary problems={null} form={error} />
            <a class="button primary wide" href={options.sso.start_url}>
              {options.sso.label}
            </a>
            {passwordShown ? (
              <p class="or muted">or with your password</p>
            ) : (
              <button type="button" class="link-button" onClick={() => setWithPassword(true)}>
                Sign in with a password (break-glass admins)
              </button>
            )}
          </div>
        )}
        <form onSubmit={submit} noValidate hidden={!passwordShown}>
          {!options?.sso && <ErrorSummary problems={null} form={error} />}
          <div class="field">
            <label for="email">Email</label>
            <input
              id="email"
              type="email"
              name="email"
              autocomplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="password">Password</label>
            <input
              id="password"
              type="password"
              name="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
            <a class="field-aside" href={PAGES.forgotPassword} onClick={followLink}>
              Forgot password?
            </a>
          </div>
          <button type="submit" class="button primary wide" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p class="auth-or" aria-hidden="true">
          or
        </p>
        <PasskeySignIn onSignedIn={props.onSignedIn} />
      </div>
      <p class="auth-foot muted">Scripts and CI jobs use API keys instead: send one in X-API-Key.</p>
    </main>
  );
};
