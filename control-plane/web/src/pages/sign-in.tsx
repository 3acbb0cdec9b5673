import { useState } from 'preact/hooks';
import { ApiError, api, type Me, type SecondFactorRequired } from '../api.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Logo } from '../layout.js';
import { SecondFactorStep } from './sign-in-code.js';
import { PasskeySignIn } from './sign-in-passkey.js';

/** `/sign-in`: Email, Password, Sign in. */
export const SignInPage = (props: { onSignedIn: (me: Me) => void }) => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A correct password of a user with a second factor: the code step (sign-in-code.tsx) takes over.
  const [challenge, setChallenge] = useState<SecondFactorRequired | null>(null);
  const workspace = location.hostname.split('.')[0] ?? '';

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
