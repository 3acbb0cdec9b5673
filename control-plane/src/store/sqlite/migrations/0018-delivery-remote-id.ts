/**
 * The service's id of a delivered message, for replying to it or editing it when the alert resolves.
 */
export default ['ALTER TABLE deliveries ADD COLUMN remote_id TEXT'];
