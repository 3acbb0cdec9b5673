import { useState } from 'preact/hooks';
import { ApiError, api, type Me } from '../api.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { TextField } from '../kit/field.js';
import { Logo } from '../layout.js';

const MIN = 12;

/** The token of an invitation link: it rides in the fragment (`#token=…`), which no server ever sees. */
const tokenFromLink = () => new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

/** `/accept-invite#token=…`: choose a password; that joins the workspace and signs in. */
export const AcceptInvitePage = (props: { onJoined: (me: Me) => void }) => {
  const [token] = useState(tokenFromLink);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problems, setProblems] = useState<{ password?: string; again?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const workspace = location.hostname.split('.')[0] ?? '';

  const submit = async (e: Event) => {
    e.preventDefault();
    const p: typeof problems = {};
    if (password.length < MIN) p.password = `Use at least ${MIN} characters.`;
    else if (password !== again) p.again = 'The two passwords differ.';
    setProblems(p);
    if (p.password || p.again) return;
    setBusy(true);
    try {
      const me = await api.acceptInvitation(token, password);
      // The link is spent: keep it out of the address bar and history.
      history.replaceState(null, '', location.pathname);
      props.onJoined(me);
    } catch (err) {
      setProblems(
        err instanceof ApiError && err.field('password')
          ? { password: err.field('password') }
          : { form: err instanceof Error ? err.message : 'That did not work.' },
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
        <h1>Join {workspace}</h1>
        {!token ? (
          <ErrorBox message="This invitation link is incomplete. Open the whole link you were sent, or ask an admin for a new one." />
        ) : (
          <>
            <p class="muted">Choose a password to finish setting up your account.</p>
            <form onSubmit={submit} noValidate>
              <ErrorSummary problems={problems} />
              <div class="field">
                <label for="new-password">New password</label>
                <input
                  id="new-password"
                  type="password"
                  autocomplete="new-password"
                  value={password}
                  aria-invalid={problems.password ? true : undefined}
                  aria-describedby="password-hint"
                  onInput={(e) => setPassword(e.currentTarget.value)}
                />
                <span class={problems.password ? 'field-problem' : 'hint'} id="password-hint">
                  {problems.password ?? `At least ${MIN} characters. A passphrase of a few words works well.`}
                </span>
              </div>
              <TextField
                id="repeat-password"
                label="Repeat password"
                problem={problems.again}
                type="password"
                autocomplete="new-password"
                value={again}
                onValue={setAgain}
              />
              <button type="submit" class="button primary wide" disabled={busy}>
                {busy ? 'Joining…' : 'Set password and sign in'}
              </button>
            </form>
          </>
        )}
      </div>
    </main>
  );
};
