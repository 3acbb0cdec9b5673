import nodemailer from 'nodemailer';
import type { AttemptResult } from './attempt.js';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
  timeoutMs: number;
}

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  /** Sent as a header so a mail loop or a re-run can be told apart. */
  deliveryId: string | null;
}

/**
 * Email over SMTP with nodemailer. A 5xx reply (mailbox unknown, refused) is permanent; 4xx replies
 * and connection problems are worth retrying.
 */
export const createSmtpSender = (s: SmtpSettings) => {
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.user ? { user: s.user, pass: s.password ?? '' } : undefined,
    connectionTimeout: s.timeoutMs,
    greetingTimeout: s.timeoutMs,
    socketTimeout: s.timeoutMs,
  });
  return {
    async send(m: EmailMessage): Promise<AttemptResult> {
      try {
        await transport.sendMail({
          from: s.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          headers: m.deliveryId ? { 'X-Lookout-Delivery': m.deliveryId } : {},
        });
        return { ok: true, permanent: false, status_code: null, error: null };
      } catch (e) {
        return smtpResult(e);
      }
    },
    close() {
      transport.close();
    },
  };
};

export const smtpResult = (e: unknown): AttemptResult => {
  const err = e as { responseCode?: number; code?: string; message?: string };
  const code = typeof err.responseCode === 'number' ? err.responseCode : null;
  // The SMTP reply decides (5xx permanent, 4xx temporary); without one, a bad envelope or bad
  // credentials will not fix themselves, while connection problems may.
  const permanent = code !== null ? code >= 500 : err.code === 'EENVELOPE' || err.code === 'EAUTH';
  return {
    ok: false,
    permanent,
    status_code: code,
    error: String(err.message ?? err.code ?? 'SMTP error').slice(0, 200),
  };
};
