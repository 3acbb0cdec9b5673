/**
 * Follow-ups are now due by `escalation_due_at` (listDueFollowUps, the escalation index): the index
 * of the former read of recently settled alerts goes.
 */
export default ['DROP INDEX IF EXISTS alerts_settled'];
