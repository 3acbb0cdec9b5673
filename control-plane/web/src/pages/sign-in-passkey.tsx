import { useState } from 'preact/hooks';
import { ApiError, type Me } from '../api.js';
import { PasskeyCancelled, passkeysApi } from '../api-passkeys.js';
import { ErrorBox } from '../kit/error-box.js';

/**
 * A sign-in with a passkey, on the sign-in page: **Sign in with a passkey** (passwordless, `challenge`
 * absent) or, after a password (`challenge` given), the passkey as the second step. The browser asks
 * which passkey and for the fingerprint, face or PIN; a refusal or a cancel is said, and the page stays.
 */
export const PasskeySignIn = (props: {
  challenge?: string;
  primary?: boolean;
  onSignedIn: (me: Me) => void;
  onRestart?: (message: string) => void;
}) => {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const me = props.challenge
        ? await passkeysApi.secondFactor(props.challenge)
        : await passkeysApi.signIn();
      props.onSignedIn(me);
    } catch (err) {
      setBusy(false);
      if (props.challenge && err instanceof ApiError && err.status === 401 && props.onRestart)
        return props.onRestart(err.message);
      setError(
        err instanceof PasskeyCancelled
          ? err.message
          : err instanceof ApiError && (err.status === 401 || err.status === 422)
            ? 'That passkey was not accepted here. Use a passkey you added to this workspace.'
            : err instanceof Error
              ? err.message
              : 'Sign-in failed.',
      );
    }
  };
  return (
    <div class="passkey-sign-in">
      <ErrorBox message={error} />
      <button
        type="button"
        class={`button wide${props.primary ? ' primary' : ''}`}
        disabled={busy}
        onClick={run}
      >
        {busy ? 'Waiting for your passkey…' : props.challenge ? 'Use your passkey' : 'Sign in with a passkey'}
      </button>
    </div>
  );
};
