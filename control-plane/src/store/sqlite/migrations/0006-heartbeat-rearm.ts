/**
 * A heartbeat whose alert was resolved by hand while it was down owes a ping from then on (spec 3.2).
 */
export default ['ALTER TABLE heartbeats ADD COLUMN rearmed_at INTEGER'];
