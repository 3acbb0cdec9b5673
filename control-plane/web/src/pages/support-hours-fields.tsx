import type { Policy } from '../api-routing.js';
import type { Problems } from '../kit/field.js';

export type SupportHours = NonNullable<Policy['support_hours']>;
type Day = SupportHours['days'][number];

const DAYS: [Day, string][] = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

/** What a new policy's support hours start as when switched on: office hours where the browser is. */
export const officeHours = (): SupportHours => ({
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  start: '09:00',
  end: '18:00',
});

/** `Mon–Fri 09:00–18:00 Europe/Berlin`, for the policies table. */
export const supportHoursText = (sh: SupportHours) =>
  `${sh.days.map((d) => DAYS.find(([x]) => x === d)![1]).join(', ')} ${sh.start}–${sh.end} ${sh.timezone}`;

/**
 * The policy form's support hours: off (every alert notifies at once), or a time zone, the days and a
 * start and end time; a warning alert outside them waits for them (a start after the end runs past
 * midnight). Problems the API named (`support_hours.start`, …) show beside their field.
 */
export const SupportHoursFields = (props: {
  prefix: string;
  value: SupportHours | null;
  onValue: (v: SupportHours | null) => void;
  problems: Problems;
}) => {
  const id = `${props.prefix}-support`;
  const v = props.value;
  const set = (change: Partial<SupportHours>) => v && props.onValue({ ...v, ...change });
  const problem = (f: string) => props.problems[`support_hours.${f}`];
  const daysProblem =
    problem('days') ?? Object.entries(props.problems).find(([k]) => k.startsWith('support_hours.days['))?.[1];
  return (
    <fieldset class="support-hours">
      <legend>Support hours</legend>
      <label class="check">
        <input
          type="checkbox"
          checked={v !== null}
          onChange={(e) => props.onValue(e.currentTarget.checked ? officeHours() : null)}
        />
        Warning alerts notify only during support hours
      </label>
      <p class="hint tight">
        Critical alerts always notify. A warning raised outside waits until they begin.
      </p>
      {v && (
        <div class="form-row">
          <div class="field">
            <label for={`${id}-tz`}>Time zone</label>
            <input
              id={`${id}-tz`}
              value={v.timezone}
              aria-invalid={problem('timezone') ? true : undefined}
              onInput={(e) => set({ timezone: e.currentTarget.value })}
            />
            {problem('timezone') && <span class="problem">{problem('timezone')}</span>}
          </div>
          <div class="field">
            <label for={`${id}-start`}>From</label>
            <input
              id={`${id}-start`}
              type="time"
              value={v.start}
              aria-invalid={problem('start') ? true : undefined}
              onInput={(e) => set({ start: e.currentTarget.value })}
            />
            {problem('start') && <span class="problem">{problem('start')}</span>}
          </div>
          <div class="field">
            <label for={`${id}-end`}>Until</label>
            <input
              id={`${id}-end`}
              type="time"
              value={v.end}
              aria-invalid={problem('end') ? true : undefined}
              onInput={(e) => set({ end: e.currentTarget.value })}
            />
            {problem('end') && <span class="problem">{problem('end')}</span>}
          </div>
          <fieldset class="days">
            <legend>Days</legend>
            {DAYS.map(([d, label]) => (
              <label key={d} class="check">
                <input
                  type="checkbox"
                  checked={v.days.includes(d)}
                  onChange={(e) =>
                    set({
                      days: e.currentTarget.checked
                        ? DAYS.map(([x]) => x).filter((x) => x === d || v.days.includes(x))
                        : v.days.filter((x) => x !== d),
                    })
                  }
                />
                {label}
              </label>
            ))}
            {daysProblem && <span class="problem">{daysProblem}</span>}
          </fieldset>
        </div>
      )}
    </fieldset>
  );
};
