import { useState } from 'preact/hooks';
import { api, type Me } from '../../api.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../../kit/field.js';
import { RecoveryCodes } from './recovery-codes.js';

type Setup = { secret: string; otpauth_url: string; qr_svg: string };

/**
 * The authenticator app part of `/settings/security`: set up (QR code, secret, first code), the
 * recovery codes shown once, and, once on, new recovery codes or turning it off (each with a current
 * code).
 */
export const TotpSection = (props: { me: Me; onChanged: () => void }) => {
  const on = props.me.user.two_factor?.totp === true;
  const left = props.me.user.two_factor?.recovery_codes_left ?? 0;
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setProblems({});
    try {
      await fn();
      setCode('');
    } catch (e) {
      setProblems(problemsOf(e));
    } finally {
      setBusy(false);
    }
  };
  const start = () => run(async () => setSetup(await api.startTotp()));
  const confirm = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const r = await api.confirmTotp(code.trim());
      setSetup(null);
      setCodes(r.recovery_codes);
    });
  };
  const regenerate = () =>
    run(async () => setCodes((await api.regenerateRecoveryCodes(code.trim())).recovery_codes));
  const turnOff = () =>
    run(async () => {
      await api.disableTotp(code.trim());
      props.onChanged();
    });

  return (
    <section class="panel" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Authenticator app</h2>
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            props.onChanged();
          }}
        />
      ) : setup ? (
        <form onSubmit={confirm} noValidate>
          <p>
            Scan this QR code with your authenticator app (1Password, Google Authenticator, Authy…), or type
            the secret into it, then enter the 6-digit code it shows.
          </p>
          {/* The SVG is made by this Lookout server (qrcode), from the otpauth URL alone. */}
          <div
            class="totp-qr"
            role="img"
            aria-label="QR code of the authenticator secret"
            dangerouslySetInnerHTML={{ __html: setup.qr_svg }}
          />
          <p>
            Secret: <code class="totp-secret">{setup.secret}</code>
          </p>
          <ErrorSummary problems={problems} />
          <TextField
            id="code"
            label="Code from the app"
            problem={problems.code}
            inputMode="numeric"
            autocomplete="one-time-code"
            maxLength={64}
            value={code}
            onValue={setCode}
          />
          <p class="form-actions">
            <button type="submit" class="button primary" disabled={busy || code.trim() === ''}>
              Confirm
            </button>
            <button type="button" class="button subtle" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </p>
        </form>
      ) : on ? (
        <div>
          <p>
            <strong>On.</strong> Signing in with your password also asks for a code from your authenticator
            app. Recovery codes left: <strong>{left}</strong>.
          </p>
          <ErrorSummary problems={problems} />
          <TextField
            id="current-code"
            label="Current code"
            hint="A code from your app (or a recovery code) to confirm it is you."
            problem={problems.code}
            autocomplete="one-time-code"
            maxLength={64}
            value={code}
            onValue={setCode}
          />
          <p class="form-actions">
            <button type="button" class="button" disabled={busy || code.trim() === ''} onClick={regenerate}>
              Generate new recovery codes
            </button>
            <button
              type="button"
              class="button danger-outline"
              disabled={busy || code.trim() === ''}
              onClick={turnOff}
            >
              Turn off
            </button>
          </p>
        </div>
      ) : (
        <div>
          <p>Protect your account with a second step at sign-in: a 6-digit code from an app on your phone.</p>
          <ErrorSummary problems={problems} />
          <button type="button" class="button primary" disabled={busy} onClick={start}>
            Set up authenticator app
          </button>
        </div>
      )}
    </section>
  );
};
