/**
 * An escalation step's schedules: whoever is on call in each when the step fires is notified. The
 * chosen ones listed (each removable), and a picker searching the workspace's schedules to add one.
 */
import { RecordName, RecordPicker, useRecordName } from '../kit/record-picker.js';

/** How many schedules one step may notify (the API's limit). */
const MAX_SCHEDULES = 10;

/** One chosen schedule, by name, with its Remove button (named for it). */
const Chosen = (props: { id: string; step: number; onRemove: () => void }) => {
  const name = useRecordName('schedule', props.id) || 'a removed schedule';
  return (
    <li>
      {name}
      <button
        type="button"
        class="button small danger-outline"
        aria-label={`Remove ${name} from step ${props.step}`}
        onClick={props.onRemove}
      >
        Remove
      </button>
    </li>
  );
};

export const StepSchedules = (props: {
  id: string;
  step: number;
  value: string[];
  onValue: (ids: string[]) => void;
}) => (
  <div class="targets">
    <p class="targets-title">Notify who is on call in</p>
    {props.value.length === 0 && <span class="muted small">No schedules.</span>}
    <ul class="step-schedules">
      {props.value.map((sid) => (
        <Chosen
          key={sid}
          id={sid}
          step={props.step}
          onRemove={() => props.onValue(props.value.filter((x) => x !== sid))}
        />
      ))}
    </ul>
    {props.value.length < MAX_SCHEDULES && (
      <RecordPicker
        id={`${props.id}-schedule`}
        kind="schedule"
        label="Schedule"
        hint="Choosing one adds it to the step."
        value=""
        none="Choose a schedule…"
        onChange={(sid) => sid && !props.value.includes(sid) && props.onValue([...props.value, sid])}
      />
    )}
  </div>
);

/** The schedules a step notifies, for the policies table. */
export const ScheduleNames = (props: { ids: string[] | undefined }) =>
  props.ids?.length
    ? props.ids.map((sid, i) => (
        <span key={sid}>
          {i > 0 ? ', ' : ''}
          on call in <RecordName kind="schedule" id={sid} missing="a removed schedule" />
        </span>
      ))
    : null;
