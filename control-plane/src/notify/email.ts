import { isIP } from 'node:net';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import nodemailer from 'nodemailer';
import type { AttemptResult } from './attempt.js';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465). */
  secure: boolean;
  /**
   * Without `secure`: `opportunistic` (default) upgrades with STARTTLS when the server offers it;
   * `required` refuses to go on without it; `never` stays in plain text.
   */
  starttls?: 'opportunistic' | 'required' | 'never';
  user: string | undefined;
  password: string | undefined;
  from: string;
  timeoutMs: number;
  /**
   * The SSRF guard: the host is resolved here and refused unless every address is public, and the
   * checked address is the one connected to (TLS still verifies the host name), so a DNS answer that
   * changes in between cannot point it elsewhere.
   */
  publicOnly?: boolean;
}

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  /** An HTML alternative to `text` (account mail: a password reset link). */
  html?: string;
  /** Sent as a header so a mail loop or a re-run can be told apart. */
  deliveryId: string | null;
  /** More headers (a subscriber mail's List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** The address to connect to: an IP literal as is, a host name resolved; either refused unless public. */
const publicAddressOf = (host: string) =>
  new Promise<string>((resolve, reject) => {
    const bare = host.replace(/^\[|\]$/g, '');
    try {
      assertPublicLiteral(bare);
    } catch (e) {
      reject(e);
      return;
    }
    if (isIP(bare)) resolve(bare);
    else publicOnlyLookup(bare, {}, (err, address) => (err ? reject(err) : resolve(address as string)));
  });

/**
 * One email over SMTP with nodemailer, on a connection of its own (closed after). A 5xx reply
 * (mailbox unknown, refused) is permanent; 4xx replies and connection problems are worth retrying; a
 * destination the SSRF guard refuses is permanent.
 */
export const sendEmail = async (s: SmtpSettings, m: EmailMessage): Promise<AttemptResult> => {
  let host = s.host;
  let servername: string | undefined;
  if (s.publicOnly) {
    try {
      host = await publicAddressOf(s.host);
      if (!isIP(s.host)) servername = s.host;
    } catch (e) {
      const err = e as { code?: string; message?: string };
      return {
        ok: false,
        permanent: err.code === 'EBLOCKED',
        status_code: null,
        error: String(err.message ?? err.code ?? 'DNS error').slice(0, 200),
      };
    }
  }
  const transport = nodemailer.createTransport({
    host,
    port: s.port,
    secure: s.secure,
    requireTLS: s.starttls === 'required',
    ignoreTLS: s.starttls === 'never',
    auth: s.user ? { user: s.user, pass: s.password ?? '' } : undefined,
    connectionTimeout: s.timeoutMs,
    greetingTimeout: s.timeoutMs,
    socketTimeout: s.timeoutMs,
    dnsTimeout: s.timeoutMs,
    ...(servername ? { tls: { servername } } : {}),
  });
  try {
    await transport.sendMail({
      from: s.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      ...(m.html ? { html: m.html } : {}),
      headers: { ...(m.headers ?? {}), ...(m.deliveryId ? { 'X-Lookout-Delivery': m.deliveryId } : {}) },
    });
    return { ok: true, permanent: false, status_code: null, error: null };
  } catch (e) {
    return smtpResult(e);
  } finally {
    transport.close();
  }
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
