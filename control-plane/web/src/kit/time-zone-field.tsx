import { TextField } from './field.js';

/** The browser's own zone, the default for a new schedule. */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The IANA zones this browser knows (UTC first), offered as the time zone field's suggestions. */
let zones: string[] | null = null;
const ianaZones = () => {
  zones ??= [
    'UTC',
    ...(Intl as unknown as { supportedValuesOf(k: 'timeZone'): string[] })
      .supportedValuesOf('timeZone')
      .filter((z) => z !== 'UTC'),
  ];
  return zones;
};

/** A "Time zone" field suggesting the IANA names (heartbeat schedules, recurring maintenance). */
export const TimeZoneField = (props: {
  id: string;
  problem: string | undefined;
  value: string;
  onValue: (v: string) => void;
}) => (
  <>
    <TextField
      id={props.id}
      label="Time zone"
      problem={props.problem}
      hint="Type to search the IANA names, e.g. Berlin or New_York."
      list={`${props.id}-zones`}
      autoComplete="off"
      spellcheck={false}
      value={props.value}
      onValue={props.onValue}
    />
    <datalist id={`${props.id}-zones`}>
      {ianaZones().map((z) => (
        <option key={z} value={z} />
      ))}
    </datalist>
  </>
);
