import { useState } from 'preact/hooks';
import { ApiError, api, type Me, type SecondFactorRequired } from '../api.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Logo } from '../layout.js';
import { PasskeySignIn } from './sign-in-passkey.js';

/**
 * The sign-in page's second step, after a correct password: the authenticator app's code, or a
 * recovery code (a link switches). A wrong code stays here (422); a dead challenge (401: expired, used,
 * out of tries) goes back to the password with the server's message.
 */
export const SecondFactorStep = (props: {
  challenge: SecondFactorRequired;
  onSignedIn: (me: Me) => void;
  onRestart: (message: string) => void;
}) => {
  const { methods } = props.challenge;
  const [method, setMethod] = useState<'totp' | 'recovery_code'>(
    methods.includes('totp') ? 'totp' : 'recovery_code',
  );
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const totp = method === 'totp';
  // A passkey, when the user has one, comes first; codes (the app's, or recovery codes) below it.
  const passkey = methods.includes('passkey');
  const codes = methods.includes('totp') || methods.includes('recovery_code');

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await api.secondFactor(props.challenge.challenge, method, code.trim()));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return props.onRestart(err.message);
      setError(
        err instanceof ApiError && err.status === 422
          ? totp
            ? 'That code is not correct (or was already used). Enter the current code from your app.'
            : 'That recovery code is not correct or was already used.'
          : err instanceof Error
            ? err.message
            : 'Sign-in failed.',
      );
    }
  };

  return (
    <main class="auth">
      <div class="auth-card">
        <div class="auth-brand">
          <Logo />
          <span>Lookout</span>
        </div>
        <h1>Two-factor sign-in</h1>
        {passkey && (
          <>
            <p class="muted">Use your passkey: your device asks for your fingerprint, face or PIN.</p>
            <PasskeySignIn
              challenge={props.challenge.challenge}
              primary
              onSignedIn={props.onSignedIn}
              onRestart={props.onRestart}
            />
          </>
        )}
        {passkey && codes && <p class="auth-or">or enter a code</p>}
        {codes && (
          <p class="muted">
            {totp
              ? 'Enter the 6-digit code from your authenticator app.'
              : 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.'}
          </p>
        )}
        {codes && (
          <form onSubmit={submit} noValidate>
            <ErrorSummary problems={null} form={error} />
            <div class="field">
              <label for="code">{totp ? 'Authentication code' : 'Recovery code'}</label>
              <input
                id="code"
                name="code"
                autocomplete="one-time-code"
                inputMode={totp ? 'numeric' : 'text'}
                required
                maxLength={64}
                value={code}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
            </div>
            <button type="submit" class="button primary wide" disabled={busy || code.trim() === ''}>
              {busy ? 'Verifying…' : 'Verify'}
            </button>
          </form>
        )}
        {methods.includes('totp') && methods.includes('recovery_code') && (
          <p>
            <button
              type="button"
              class="link-button"
              onClick={() => {
                setMethod(totp ? 'recovery_code' : 'totp');
                setCode('');
                setError(null);
              }}
            >
              {totp ? 'Use a recovery code instead' : 'Use your authenticator app instead'}
            </button>
          </p>
        )}
      </div>
    </main>
  );
};
