/**
 * A browser that has signed in to an account: OWASP's "device cookie". The token lives only in the
 * browser's cookie; the store keeps its SHA-256. It proves only "this browser signed in to this account
 * before" and buys that browser its own allowance of failed sign-ins (domain/access/sign-in-guard.ts); it
 * never signs anyone in.
 */
export interface SignInDevice {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
}

/**
 * An account's sign-ins as its owner and the workspace's admins see them. Attempted passwords are never
 * kept. `failed_count` counts the latest failures in a row: those since `failed_since`, the successful
 * sign-in before the first of them (null: there was none). A success ends the run without erasing it
 * (the owner signing in still sees what happened before); the next failure starts a new run.
 */
export interface SignInActivity {
  workspace_id: string;
  user_id: string;
  last_sign_in_at: Date | null;
  failed_count: number;
  failed_since: Date | null;
  last_failed_at: Date | null;
  /** The client address of the last failure (the forwarded one when a proxy is trusted). */
  last_failed_address: string | null;
}

/**
 * Where devices and sign-in activity are kept. Every method is one atomic step; removing a user
 * (MemberStore.removeUser) deletes theirs. Adapters: store/sqlite/sign-ins.ts, store/mongo/sign-ins.ts;
 * contract test/contract/sign-ins.ts.
 */
export interface SignInStore {
  /**
   * A successful sign-in at `at`: sets the user's last_sign_in_at, stores `device` (the browser's new
   * one), deletes the device `replaces` (the one the browser presented, if it was this user's) and
   * keeps only the user's newest `keep` devices.
   */
  recordSignIn(input: {
    workspace_id: string;
    user_id: string;
    at: Date;
    device: SignInDevice;
    replaces: string | null;
    keep: number;
  }): Promise<void>;
  /** A failed sign-in to the user's account at `at` from `address` (see SignInActivity for the count). */
  recordFailedSignIn(workspaceId: string, userId: string, at: Date, address: string): Promise<void>;
  findSignInDevice(tokenHash: string): Promise<SignInDevice | null>;
  /** The activity of those of `userIds` in the workspace that have any (signed in or failed once). */
  listSignInActivity(workspaceId: string, userIds: string[]): Promise<SignInActivity[]>;
  /** Deletes up to `limit` devices past their expiry at `now`. */
  pruneSignInDevices(now: Date, limit: number): Promise<number>;
}
