import type { Region } from '../../api.js';
import { describedBy, FieldNotes } from '../../kit/field.js';

const LOCATIONS_HINT = 'The regions that check it. A monitor is down when enough of them fail.';

/** Why a region would not check a monitor of this type: no agent reporting, or none that runs the type. */
const regionNote = (r: Region | undefined, type: string) => {
  if (r?.healthy === false) return ' (no agent reporting)';
  if (r && r.agents.length > 0 && !r.agents.some((a) => a.check_types.includes(type)))
    return ` (no agent here runs ${type} checks)`;
  return '';
};

/**
 * Check locations: one box per region monitors may run from (GET /regions), each with its health and
 * whether an agent there runs the chosen type; a region the monitor names that is no longer offered
 * stays listed so it can be unticked.
 */
export const Locations = (props: {
  regions: Region[] | null;
  monitorType: string;
  chosen: string[] | null;
  problem: string | undefined;
  onChange: (v: string[]) => void;
}) => {
  const offered = props.regions?.map((r) => r.region) ?? [];
  const names = [...offered, ...(props.chosen ?? []).filter((c) => !offered.includes(c))];
  const ticked = props.chosen ?? offered;
  const note = (name: string) =>
    regionNote(
      props.regions?.find((r) => r.region === name),
      props.monitorType,
    );
  return (
    <fieldset class="field locations" {...describedBy('mf-check_locations', props.problem, LOCATIONS_HINT)}>
      <legend>Check locations</legend>
      {props.regions === null ? (
        <span class="muted small">Loading the regions…</span>
      ) : (
        <div class="choices">
          {names.map((name) => (
            <label key={name}>
              <input
                type="checkbox"
                checked={ticked.includes(name)}
                onChange={(e) =>
                  props.onChange(
                    e.currentTarget.checked
                      ? names.filter((n) => n === name || ticked.includes(n))
                      : ticked.filter((n) => n !== name),
                  )
                }
              />{' '}
              {name}
              {note(name) && <span class="muted small">{note(name)}</span>}
            </label>
          ))}
        </div>
      )}
      <FieldNotes id="mf-check_locations" problem={props.problem} hint={LOCATIONS_HINT} />
    </fieldset>
  );
};
