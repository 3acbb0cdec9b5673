/**
 * The SAML assertions already accepted (domain/access/saml.ts), so that a captured response cannot
 * sign anyone in a second time. Each is kept until its own expiry (the assertion's NotOnOrAfter plus
 * the clock skew allowed): past it, the timing check refuses the assertion anyway, so the row is only
 * pruned. Adapters: store/sqlite/saml-replay.ts, store/mongo/saml-replay.ts.
 */
export interface SeenAssertion {
  workspace_id: string;
  /** The IdP's entity id: assertion ids are unique per issuer. */
  issuer: string;
  assertion_id: string;
  expires_at: Date;
}

export interface SamlReplayStore {
  /**
   * Records the assertion as used. True the first time; false, changing nothing, when it was already
   * recorded (a replay). One atomic insert-if-absent, so two replicas given the same response at once
   * accept it once.
   */
  rememberSamlAssertion(seen: SeenAssertion): Promise<boolean>;
  /** Deletes up to `limit` assertions whose expiry is before `now`. */
  pruneSamlAssertions(now: Date, limit: number): Promise<number>;
}
