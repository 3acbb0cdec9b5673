import { randomUUID } from 'node:crypto';
import { USER_AGENT_MAX } from './audit-scope.js';
import type { AuditStore } from './audit-store.js';

/** How a sign-in was made. */
export type SignInVia = 'password' | 'totp' | 'recovery_code' | 'passkey' | 'oidc' | 'saml';

export interface SignInRecord {
  workspace: { id: string };
  /** The user signed in, or whose sign-in failed; null when the email typed names nobody. */
  user: { id: string; email: string } | null;
  /** The email as typed (or as the identity provider gave it); cut to 254 characters. */
  email: string;
  via: SignInVia;
  ok: boolean;
  /** The session a successful sign-in made (the entry's resource); none for a failed one. */
  session_id?: string | null;
  ip: string | null;
  user_agent: string | null;
  at: Date;
}

/**
 * Appends the audit entry of one sign-in: `session.sign_in` or `session.sign_in_failed`, for a known
 * or an unknown email. The actor is the user (id null when nobody has the email, named by the email
 * typed); `changes` is `{"via": [null, via]}`, so how they signed in is read and filtered like any
 * other field. The password or code tried is never given here, so never stored. For the JSON sign-in
 * routes the route layer calls it; the browser redirect endpoints (`/auth/*`, outside the route table)
 * call it themselves.
 */
export const recordSignIn = async (store: Pick<AuditStore, 'appendAuditEntry'>, r: SignInRecord) => {
  const email = r.user?.email ?? r.email;
  await store.appendAuditEntry({
    id: randomUUID(),
    workspace_id: r.workspace.id,
    at: r.at,
    actor: { type: 'user', id: r.user?.id ?? null, name: email.slice(0, 254) },
    ip: r.ip,
    user_agent: r.user_agent === null ? null : r.user_agent.slice(0, USER_AGENT_MAX),
    action: r.ok ? 'session.sign_in' : 'session.sign_in_failed',
    resource_type: 'session',
    resource_id: r.ok ? (r.session_id ?? null) : null,
    changes: { via: [null, r.via] },
  });
};
