/**
 * A user's TOTP authenticator. The secret is sealed with the deployment's secret box (context
 * `totp:<workspace>:<user>`); it is pending (`confirmed_at` null) from setup until the first code is
 * confirmed. `last_step` is the RFC 6238 time step of the last code accepted: a code of that step or
 * an earlier one is refused (no replay within its window).
 */
export interface TotpFactor {
  workspace_id: string;
  user_id: string;
  secret_sealed: string;
  created_at: Date;
  confirmed_at: Date | null;
  last_step: number | null;
}

/** One recovery code: only its SHA-256 is kept; using it deletes it. */
export interface RecoveryCode {
  id: string;
  workspace_id: string;
  user_id: string;
  code_hash: string;
  created_at: Date;
}

/**
 * A password accepted, a second factor still owed (domain/access/second-factor.ts): the token lives only
 * in the client's hands (`lc.` + 256 random bits), the store keeps its SHA-256. `failures` counts the
 * wrong codes tried with it (taken before each check, so parallel tries cannot pass the limit).
 * Consuming it deletes it: a used challenge is gone, so it cannot be replayed.
 */
export interface SignInChallenge {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  failures: number;
}

/** What a user has as second factors. `passkeys` is the number of passkeys (table of migration 0047). */
export interface SecondFactors {
  totp: TotpFactor | null;
  recovery_codes_left: number;
  passkeys: number;
}

/** The workspace's sign-in policy: `require_2fa` makes every password user set up a second factor. */
export interface WorkspaceSecurity {
  workspace_id: string;
  require_2fa: boolean;
}

/**
 * Where second factors, sign-in challenges and the workspace's `require_2fa` are kept. Every method is
 * one atomic step. Adapters: store/sqlite/second-factors.ts, store/mongo/second-factors.ts; contract
 * test/contract/second-factors.test.ts. Removing a user deletes theirs.
 */
export interface SecondFactorStore {
  getSecondFactors(workspaceId: string, userId: string): Promise<SecondFactors>;
  /** Stores a pending TOTP secret, replacing a pending one; false (nothing changed) when one is confirmed. */
  putPendingTotp(factor: TotpFactor): Promise<boolean>;
  /**
   * Confirms the pending secret at `at` with the time step of the code that confirmed it, and replaces
   * the user's recovery codes by `codes`. False, changing nothing, when there is no pending secret.
   */
  confirmTotp(input: {
    workspace_id: string;
    user_id: string;
    at: Date;
    step: number;
    codes: RecoveryCode[];
  }): Promise<boolean>;
  /** Moves a confirmed factor's last_step to `step` when it is later; false (a replay) otherwise. */
  acceptTotpStep(workspaceId: string, userId: string, step: number): Promise<boolean>;
  /** Deletes the TOTP factor, and the recovery codes too unless `keepRecoveryCodes`. */
  deleteTotp(workspaceId: string, userId: string, keepRecoveryCodes: boolean): Promise<void>;
  /** Replaces every recovery code of the user by `codes`. */
  replaceRecoveryCodes(workspaceId: string, userId: string, codes: RecoveryCode[]): Promise<void>;
  /** The user's codes left (at most the 10 issued). */
  listRecoveryCodes(workspaceId: string, userId: string): Promise<RecoveryCode[]>;
  /** Deletes the code; true only for the one call that deleted it (single use under concurrency). */
  useRecoveryCode(workspaceId: string, userId: string, id: string): Promise<boolean>;
  insertChallenge(challenge: SignInChallenge): Promise<void>;
  findChallenge(tokenHash: string): Promise<SignInChallenge | null>;
  /** Adds one to the challenge's failures and returns the new count; null when the challenge is gone. */
  countChallengeTry(id: string): Promise<number | null>;
  /** Deletes the challenge; true only for the one call that deleted it. */
  consumeChallenge(id: string): Promise<boolean>;
  /** Deletes up to `limit` challenges past their expiry at `now`. */
  pruneChallenges(now: Date, limit: number): Promise<number>;
  getWorkspaceSecurity(workspaceId: string): Promise<WorkspaceSecurity>;
  putWorkspaceSecurity(settings: WorkspaceSecurity): Promise<void>;
}
