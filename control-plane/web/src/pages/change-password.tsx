import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { SignInActivity } from './sign-in-activity.js';

const MIN = 12;

/** `/settings/password`: needs the current password; every other session of the user ends. */
export const ChangePasswordPage = () => {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    const p: Record<string, string> = {};
    if (!current) p.current = 'Enter your current password.';
    if (next.length < MIN) p.next = `Use at least ${MIN} characters.`;
    else if (next !== again) p.again = 'The two new passwords differ.';
    setProblems(p);
    if (Object.keys(p).length > 0) return;
    setBusy(true);
    try {
      await api.changePassword(current, next);
      setCurrent('');
      setNext('');
      setAgain('');
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError)
        setProblems({
          current: err.field('current_password') ?? '',
          next: err.field('new_password') ?? '',
          form: err.details.length ? '' : err.message,
        });
    } finally {
      setBusy(false);
    }
  };

  /** A password input with its problem, or else its hint (if any), under it. */
  const field = (
    id: string,
    label: string,
    value: string,
    set: (v: string) => void,
    auto: string,
    hint?: string,
  ) => {
    const note = problems[id] || hint;
    return (
      <div class="field">
        <label for={`pw-${id}`}>{label}</label>
        <input
          id={`pw-${id}`}
          type="password"
          autocomplete={auto}
          value={value}
          aria-invalid={problems[id] ? true : undefined}
          aria-describedby={note ? `${id}-note` : undefined}
          onInput={(e) => set(e.currentTarget.value)}
        />
        {note && (
          <span class={problems[id] ? 'field-problem' : 'hint'} id={`${id}-note`}>
            {note}
          </span>
        )}
      </div>
    );
  };

  return (
    <section class="page">
      <h1>Password</h1>
      <p class="lead">
        Changing your password signs you out everywhere else. API keys keep working: revoke them separately.
      </p>
      <div class="panel narrow">
        <form onSubmit={submit} noValidate>
          {done && (
            <p class="ok-box" role="status">
              Password changed. Your other sessions have been signed out.
            </p>
          )}
          <ErrorSummary problems={problems} />
          {field('current', 'Current password', current, setCurrent, 'current-password')}
          {field(
            'next',
            'New password',
            next,
            setNext,
            'new-password',
            `At least ${MIN} characters. A passphrase of a few words works well.`,
          )}
          {field('again', 'Repeat new password', again, setAgain, 'new-password')}
          <button type="submit" class="button primary" disabled={busy}>
            Change password
          </button>
        </form>
      </div>
      <SignInActivity />
    </section>
  );
};
