import { useState } from 'preact/hooks';
import { PAGES } from '../../../src/http/page-paths.js';
import { api } from '../api.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../kit/field.js';
import { Logo } from '../layout.js';
import { followLink } from '../router.js';

/** `/forgot-password`: an email; the answer is the same whether an account has it or not. */
export const ForgotPasswordPage = () => {
  const [email, setEmail] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const workspace = location.hostname.split('.')[0] ?? '';

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!email.trim()) {
      setProblems({ email: 'Enter the email address you sign in with.' });
      return;
    }
    setBusy(true);
    try {
      setSent((await api.requestPasswordReset(email.trim())).message);
      setProblems({});
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
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
        <h1>Forgot your password?</h1>
        <p class="muted">
          for the <strong>{workspace}</strong> workspace
        </p>
        {sent ? (
          <>
            <p class="ok-box" role="status">
              {sent} Open it within 30 minutes. Nothing there? Check the address and your spam folder, then
              ask again.
            </p>
            <p>
              <a href={PAGES.signIn} onClick={followLink}>
                Back to sign in
              </a>
            </p>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <ErrorSummary problems={problems} />
            <p class="muted">
              Enter your email: if an account here has it, we send it a link to choose a new password.
            </p>
            <TextField
              id="email"
              label="Email"
              type="email"
              autocomplete="username"
              problem={problems.email}
              value={email}
              onValue={setEmail}
            />
            <button type="submit" class="button primary wide" disabled={busy}>
              {busy ? 'Sending…' : 'Send reset link'}
            </button>
            <p class="auth-foot">
              <a href={PAGES.signIn} onClick={followLink}>
                Back to sign in
              </a>
            </p>
          </form>
        )}
      </div>
    </main>
  );
};
