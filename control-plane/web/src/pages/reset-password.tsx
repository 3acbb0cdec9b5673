import { useEffect, useState } from 'preact/hooks';
import { PAGES } from '../../../src/http/page-paths.js';
import { api } from '../api.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../kit/field.js';
import { Logo } from '../layout.js';
import { followLink } from '../router.js';

const MIN = 12;

/** `/reset-password?token=…`: the link of a reset mail; a new password, twice. */
export const ResetPasswordPage = (props: { onReset: () => void }) => {
  const [token] = useState(() => new URLSearchParams(location.search).get('token') ?? '');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);

  // The token is kept by the page: out of the address bar, the history and any later Referer.
  useEffect(() => {
    if (location.search) history.replaceState(null, '', location.pathname);
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const p: Problems = {};
    if (password.length < MIN) p.new_password = `Use at least ${MIN} characters.`;
    else if (password !== again) p.again = 'The two passwords differ.';
    setProblems(p);
    if (p.new_password || p.again) return;
    setBusy(true);
    try {
      await api.confirmPasswordReset(token, password);
      props.onReset();
    } catch (err) {
      const found = problemsOf(err);
      // The token is no field of this form: its problem is the form's.
      setProblems(found.token ? { ...found, token: undefined, form: found.token } : found);
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
        <h1>Choose a new password</h1>
        {!token ? (
          <>
            <ErrorBox message="This reset link is incomplete. Open the whole link from the email, or ask for a new one." />
            <p>
              <a href={PAGES.forgotPassword} onClick={followLink}>
                Ask for a new link
              </a>
            </p>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <ErrorSummary problems={problems} />
            <p class="muted">Setting it signs you out everywhere, on every browser.</p>
            <TextField
              id="new-password"
              label="New password"
              type="password"
              autocomplete="new-password"
              hint={`At least ${MIN} characters. A passphrase of a few words works well.`}
              problem={problems.new_password}
              value={password}
              onValue={setPassword}
            />
            <TextField
              id="repeat-password"
              label="Repeat new password"
              type="password"
              autocomplete="new-password"
              problem={problems.again}
              value={again}
              onValue={setAgain}
            />
            <button type="submit" class="button primary wide" disabled={busy}>
              {busy ? 'Saving…' : 'Set new password'}
            </button>
            {problems.form && (
              <p class="auth-foot">
                <a href={PAGES.forgotPassword} onClick={followLink}>
                  Ask for a new link
                </a>
              </p>
            )}
          </form>
        )}
      </div>
    </main>
  );
};
