/**
 * A user's passkey (a WebAuthn credential registered in this workspace). `credential_id` and
 * `public_key` are base64url, as the authenticator gave them; `counter` is the signature counter it
 * last reported (0 for authenticators that keep none).
 */
export interface Passkey {
  id: string;
  workspace_id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

/**
 * A WebAuthn challenge handed out and not yet answered. Only its SHA-256 (`id`) is kept: the challenge
 * itself travels in the options and comes back inside the credential's clientDataJSON. Taken once.
 */
export interface PasskeyChallenge {
  id: string;
  workspace_id: string;
  /** The user registering or signing in with a second factor; null for a passwordless sign-in. */
  user_id: string | null;
  purpose: 'register' | 'sign_in';
  expires_at: Date;
}

/**
 * Passkeys and their challenges. Every method is one atomic step; removing a user (MemberStore.removeUser)
 * leaves passkeys that no user owns, which a sign-in refuses. Adapters: store/sqlite/passkeys.ts,
 * store/mongo/passkeys.ts; contract test/contract/passkeys.test.ts.
 */
export interface PasskeyStore {
  /** Inserts unless the workspace has the credential id already or the user has `maxPerUser` passkeys. */
  insertPasskey(
    passkey: Passkey,
    limit: { maxPerUser: number },
  ): Promise<'inserted' | 'taken' | 'limit_reached'>;
  /** The user's passkeys, oldest first. */
  listPasskeys(workspaceId: string, userId: string): Promise<Passkey[]>;
  findPasskeyByCredentialId(workspaceId: string, credentialId: string): Promise<Passkey | null>;
  /** Deletes the user's passkey; false when the user has none with this id. */
  deletePasskey(workspaceId: string, userId: string, id: string): Promise<boolean>;
  /**
   * Compare-and-set: sets counter to `counter` and last_used_at to `at` only if the stored counter is
   * still `expected`. False when another sign-in moved it first (or the passkey is gone).
   */
  usePasskey(
    workspaceId: string,
    id: string,
    change: { expected: number; counter: number; at: Date },
  ): Promise<boolean>;
  insertPasskeyChallenge(challenge: PasskeyChallenge): Promise<void>;
  /** Deletes and returns the challenge if it is of this workspace and unexpired at `now`; else null. */
  takePasskeyChallenge(workspaceId: string, id: string, now: Date): Promise<PasskeyChallenge | null>;
  /** Deletes up to `limit` challenges expired at `now`. */
  prunePasskeyChallenges(now: Date, limit: number): Promise<number>;
}
