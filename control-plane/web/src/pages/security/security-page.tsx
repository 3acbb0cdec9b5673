import { useEffect, useState } from 'preact/hooks';
import { api, type Me } from '../../api.js';
import { problemsOf } from '../../kit/field.js';
import { PasskeysSection } from './passkeys-section.js';
import { TotpSection } from './totp-section.js';

/** Admins: "Require two-factor for everyone" (PUT /security). */
const WorkspacePolicy = () => {
  const [required, setRequired] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.workspaceSecurity().then(
      (s) => setRequired(s.require_2fa),
      (e) => setError(problemsOf(e).form ?? 'Could not load the workspace setting.'),
    );
  }, []);
  const toggle = async (next: boolean) => {
    setError(null);
    try {
      setRequired((await api.setWorkspaceSecurity(next)).require_2fa);
    } catch (e) {
      setError(problemsOf(e).form ?? 'Could not save.');
    }
  };
  return (
    <section class="panel" aria-labelledby="workspace-2fa-heading">
      <h2 id="workspace-2fa-heading">Workspace</h2>
      {error && <p class="error-box">{error}</p>}
      <label class="check">
        <input
          type="checkbox"
          checked={required === true}
          disabled={required === null}
          onChange={(e) => toggle(e.currentTarget.checked)}
        />{' '}
        Require two-factor for everyone
      </label>
      <p class="hint">
        People who sign in with a password and have no second factor are led here to set one up at their next
        sign-in, and can do nothing else until they have. Single sign-on users are not asked (your identity
        provider handles their MFA); API keys are not affected.
      </p>
    </section>
  );
};

/** `/settings/security` (everyone): two-factor sign-in for yourself; for admins, requiring it. */
export const SecurityPage = (props: { me: Me; onChanged: () => void }) => (
  <section class="page">
    <h1>Security</h1>
    {props.me.two_factor_setup_required ? (
      <p class="notice" role="alert">
        Your workspace requires two-factor sign-in. Set up an authenticator app (or a passkey) to continue
        using Lookout.
      </p>
    ) : (
      <p class="lead">A second step at sign-in keeps your account safe even if your password leaks.</p>
    )}
    <TotpSection me={props.me} onChanged={props.onChanged} />
    <PasskeysSection me={props.me} onChanged={props.onChanged} />
    {props.me.user.role === 'admin' && !props.me.two_factor_setup_required && <WorkspacePolicy />}
  </section>
);
