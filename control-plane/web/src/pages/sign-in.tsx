import { useState } from 'preact/hooks';
import { ApiError, api, type Me } from '../api.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { PAGES } from '../../../src/http/page-paths.js';
import { Logo } from '../layout.js';
import { followLink } from '../router.js';

/** `/sign-in`: Email, Password, Sign in. */
export const SignInPage = (props: { onSignedIn: (me: Me) => void }) => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const workspace = location.hostname.split('.')[0] ?? '';
  // Back from a password reset (pages/reset-password.tsx).
  const [wasReset] = useState(() => new URLSearchParams(location.search).get('reset') === 'done');

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await api.signIn(email, password));
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
        <form onSubmit={submit} noValidate>
          <ErrorSummary problems={null} form={error} />
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
      </div>
      <p class="auth-foot muted">Scripts and CI jobs use API keys instead: send one in X-API-Key.</p>
    </main>
  );
};
