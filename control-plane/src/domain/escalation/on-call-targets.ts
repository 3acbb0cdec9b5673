import type { ContactServices } from '../contacts/contact-methods.js';
import type { OnCallNote, OnCallNoteJson } from '../on-call-note.js';
import { onCallAt } from '../oncall/shifts.js';
import type { EscalationStep, Schedule, ScheduleOverride } from '../types.js';
import { type Recipient, type RecipientStore, stepRecipients, userRecipients } from './recipients.js';

/** The schedule reads a step needs (the ScheduleStore port in domain/oncall/schedule-store.ts). */
export interface ScheduleReads {
  getSchedule(workspaceId: string, id: string): Promise<Schedule | null>;
  listOverrides(workspaceId: string, scheduleId: string, from: Date, to: Date): Promise<ScheduleOverride[]>;
}

/** The most notes an alert keeps (the newest); a policy of 10 steps × 10 schedules × 11 rounds could make 1,100. */
export const MAX_ON_CALL_NOTES = 100;

/** The schedules a step names; steps stored before schedules existed have none. */
export const stepSchedules = (step: Pick<EscalationStep, 'notify_schedule_ids'>): string[] =>
  step.notify_schedule_ids ?? [];

const why = (note: Pick<OnCallNote, 'source' | 'override_by'>): string => {
  const s = note.source;
  if (!s) return '';
  if (s.kind === 'override') return note.override_by ? ` (override by ${note.override_by})` : ' (override)';
  return s.layer_name ? ` (layer ${s.layer}, ${s.layer_name})` : ` (layer ${s.layer})`;
};

/** The words of a note: "reached ana@… — on call in Primary (layer 2, Weekdays)", "nobody on call in Primary". */
export const noteText = (
  n: Pick<OnCallNote, 'schedule_name' | 'user_email' | 'source' | 'override_by' | 'schedule_id'>,
): string => {
  if (n.schedule_id === null) return 'the last step of the last round reached nobody: escalation ends here';
  if (n.schedule_name === null) return 'nobody on call: the schedule was deleted';
  if (n.user_email === null) return `nobody on call in ${n.schedule_name}`;
  return `reached ${n.user_email} — on call in ${n.schedule_name}${why(n)}`;
};

/**
 * Everyone a step reaches when it fires at `now`: its users and channels (stepRecipients), and for each
 * schedule it names whoever is on call at that moment (the engine's onCallAt), reached exactly as a
 * step's user is (their account email and verified methods, the same recipient keys, so a user named
 * twice is reached once). One note per schedule says whom it found and why, or that nobody was on call.
 */
export const resolveStep = async (
  store: RecipientStore & ScheduleReads,
  services: ContactServices,
  workspaceId: string,
  step: EscalationStep,
  at: { step: number; round: number; now: Date },
): Promise<{ recipients: Recipient[]; notes: OnCallNote[] }> => {
  const recipients = new Map<string, Recipient>();
  for (const r of await stepRecipients(store, services, workspaceId, step)) recipients.set(r.key, r);
  const notes: OnCallNote[] = [];
  const base = { at: at.now, step: at.step, round: at.round };
  for (const scheduleId of stepSchedules(step)) {
    const schedule = await store.getSchedule(workspaceId, scheduleId);
    const nobody = {
      ...base,
      schedule_id: scheduleId,
      schedule_name: schedule?.name ?? null,
      user_id: null,
      user_email: null,
      source: null,
      override_by: null,
    };
    const shift = schedule
      ? onCallAt(
          schedule,
          await store.listOverrides(workspaceId, scheduleId, at.now, new Date(at.now.getTime() + 1)),
          at.now,
        ).shift
      : null;
    const user = shift ? await store.getUser(workspaceId, shift.user_id) : null;
    if (!shift || !user) {
      notes.push({ ...nobody, text: noteText(nobody) });
      continue;
    }
    const by =
      shift.source.kind === 'override' && shift.source.created_by
        ? ((await store.getUser(workspaceId, shift.source.created_by))?.email ?? null)
        : null;
    const note = {
      ...nobody,
      user_id: user.id,
      user_email: user.email,
      source: shift.source,
      override_by: by,
    };
    notes.push({ ...note, text: noteText(note) });
    for (const r of await userRecipients(store, services, workspaceId, user)) recipients.set(r.key, r);
  }
  return { recipients: [...recipients.values()], notes };
};

/** The note that escalation ended with nobody reached by its last step. */
export const endedNote = (at: { step: number; round: number; now: Date }): OnCallNote => {
  const n = {
    at: at.now,
    step: at.step,
    round: at.round,
    schedule_id: null,
    schedule_name: null,
    user_id: null,
    user_email: null,
    source: null,
    override_by: null,
  };
  return { ...n, text: noteText(n) };
};

/** Notes as stored on the escalation (newest MAX_ON_CALL_NOTES kept). */
export const withNotes = (stored: OnCallNoteJson[] | undefined, added: OnCallNote[]): OnCallNoteJson[] =>
  [...(stored ?? []), ...added.map((n) => ({ ...n, at: n.at.toISOString() }))].slice(-MAX_ON_CALL_NOTES);
