import type { Alert, EscalationPolicy, EscalationProgress, MaintenanceWindow } from '../types.js';

/**
 * Escalation timing, pure. A policy is a list of steps, each "wait N minutes, then notify"; the wait
 * counts from the previous step (the first step's from the moment the alert is raised). After the
 * last step the policy starts over at the first step, `repeat` more times; that first step then waits
 * its own wait or, if that is 0, the last step's. Acknowledging or resolving
 * stops it (the store clears `escalation_due_at`).
 */

const MINUTE = 60_000;

export interface Position {
  escalation: EscalationProgress | null;
  escalation_due_at: Date | null;
}

/** Where a new alert starts: step 0 after its wait, or nowhere when suppressed or there is no policy. */
export const startEscalation = (
  policy: EscalationPolicy | null,
  window: Pick<MaintenanceWindow, 'id' | 'name'> | null,
  now: Date,
): Position => {
  if (!policy) return { escalation: null, escalation_due_at: null };
  const escalation: EscalationProgress = {
    policy_id: policy.id,
    step: 0,
    round: 0,
    claim: null,
    suppressed_by: window ? { window_id: window.id, name: window.name } : null,
    finished: false,
  };
  if (window || policy.steps.length === 0) return { escalation, escalation_due_at: null };
  return { escalation, escalation_due_at: new Date(now.getTime() + policy.steps[0]!.wait_minutes * MINUTE) };
};

/** The position after the current step ran (or was skipped) at `now`; finished after the last round. */
export const afterStep = (policy: EscalationPolicy, progress: EscalationProgress, now: Date): Position => {
  let step = progress.step + 1;
  let round = progress.round;
  if (step >= policy.steps.length) {
    step = 0;
    round += 1;
  }
  if (round > policy.repeat || policy.steps.length === 0) {
    return {
      escalation: { ...progress, claim: null, finished: true },
      escalation_due_at: null,
    };
  }
  // A repeat starts over at the first step after its wait — or, when that is 0, after as long as the
  // last step waited, so "page at once, then the manager after 15 min" repeats every 15 minutes.
  const wait =
    step === 0 && round > progress.round
      ? policy.steps[0]!.wait_minutes || policy.steps[policy.steps.length - 1]!.wait_minutes
      : policy.steps[step]!.wait_minutes;
  return {
    escalation: { ...progress, step, round, claim: null },
    escalation_due_at: new Date(now.getTime() + wait * MINUTE),
  };
};

/**
 * The key of one notification of one step (alert:policy:round:step:target): a step re-run after a crash
 * skips targets already sent.
 */
export const idempotencyKey = (
  alert: Pick<Alert, 'id'>,
  progress: Pick<EscalationProgress, 'policy_id' | 'round' | 'step'>,
  target: string,
) => `${alert.id}:${progress.policy_id}:${progress.round}:${progress.step}:${target}`;
