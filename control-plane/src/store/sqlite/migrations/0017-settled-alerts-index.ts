/**
 * Alerts acknowledged or resolved lately, for the notifications that follow them (listSettledAlerts).
 */
export default ["CREATE INDEX alerts_settled ON alerts (updated_at) WHERE status != 'open'"];
