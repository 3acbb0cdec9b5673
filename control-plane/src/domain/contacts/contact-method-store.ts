import type { ContactAddress, ContactMethodType } from './kinds/index.js';

/** How a user can be reached besides their account email: one kind each in kinds/ (index.ts). */
export type { ContactAddress, ContactMethodType };

/** A code sent to prove the method reaches its user: only its hash is kept. */
export interface ContactVerification {
  code_hash: string;
  sent_at: Date;
  expires_at: Date;
  /** Wrong codes entered against this one. */
  failed_attempts: number;
}

/** One of a user's own ways to be reached. Used by escalations only once verified. */
export interface ContactMethod {
  id: string;
  workspace_id: string;
  user_id: string;
  type: ContactMethodType;
  address: ContactAddress;
  verified_at: Date | null;
  verification: ContactVerification | null;
  created_at: Date;
  /** Bumped by every update: updates are compare-and-set on it. */
  version: number;
}

/** A counter of verification codes sent in one window (domain/contacts/code-limits.ts). */
export interface SendAllowance {
  /** Names the scope and the window, e.g. `user:<workspace>:<user>:hour:<window start ms>`. */
  key: string;
  limit: number;
  /** The window's end: the counter is dropped after it. */
  expires_at: Date;
}

/**
 * Users' contact methods. Adapters: store/sqlite/contact-methods.ts, store/mongo/contact-methods.ts.
 */
export interface ContactMethodStore {
  /** The user's methods, oldest first. */
  listContactMethods(workspaceId: string, userId: string): Promise<ContactMethod[]>;
  getContactMethod(workspaceId: string, userId: string, id: string): Promise<ContactMethod | null>;
  insertContactMethod(method: ContactMethod): Promise<void>;
  /**
   * Compare-and-set: replaces the method (stored with `version` + 1) only if its stored version is
   * still `method.version`; false otherwise (changed meanwhile, or gone).
   */
  updateContactMethod(method: ContactMethod): Promise<boolean>;
  deleteContactMethod(workspaceId: string, userId: string, id: string): Promise<boolean>;
  /** Deletes every method of a user (removed from the workspace); returns how many. */
  deleteUserContactMethods(workspaceId: string, userId: string): Promise<number>;
  /**
   * Takes one from each counter at once (a counter not seen yet is at 0): all of them, or, when one
   * has reached its `limit` already, none, and returns that one; null when taken. Atomic across
   * replicas. Counters whose `expires_at` has passed are dropped (here, or by a TTL index).
   */
  takeSendAllowance(allowances: SendAllowance[], now: Date): Promise<SendAllowance | null>;
}
