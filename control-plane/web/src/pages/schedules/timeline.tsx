/**
 * A schedule's next days as a timeline: one row per layer, a row of overrides, and the final row
 * (who is actually paged). Each shift is a coloured bar labelled with its user (one colour per user
 * across rows); a span with nobody on call is a hatched gap in the final row with a warning under the
 * timeline; today's column is marked and a line stands at now. On a phone the rows scroll sideways
 * inside the timeline, their names staying in view.
 */
import type { Gap, Shift } from '../../api-schedules.js';
import { dayLabel, midnights, spanIn } from './zone.js';

export interface TimelineRow {
  label: string;
  shifts: Shift[];
  /** The final row shows gaps (spans with nobody on call). */
  final?: boolean;
}

/** Hues far apart, given to a timeline's users in the order they first appear (the same in every row). */
const HUES = [210, 30, 140, 330, 265, 60, 180, 0, 100, 295];
const huesOf = (rows: TimelineRow[]) => {
  const hues = new Map<string, number>();
  for (const r of rows)
    for (const s of r.shifts) if (!hues.has(s.user.id)) hues.set(s.user.id, HUES[hues.size % HUES.length]!);
  return hues;
};

/** "alice" for alice@example.com: what fits on a bar (the whole address is its name). */
export const shortName = (email: string) => email.split('@')[0] ?? email;

export const Timeline = (props: {
  tz: string;
  rows: TimelineRow[];
  gaps: Gap[];
  days?: number;
  now?: Date;
  /** Names the timeline (a page may show more than one). */
  label?: string;
  busy?: boolean;
}) => {
  const days = props.days ?? 14;
  const now = props.now ?? new Date();
  const marks = midnights(now, props.tz, days);
  const start = marks[0]!.getTime();
  const end = marks[days]!.getTime();
  const span = end - start;
  const place = (from: string, to: string) => {
    const a = Math.max(start, new Date(from).getTime());
    const b = Math.min(end, new Date(to).getTime());
    return b <= a ? null : { left: `${((a - start) / span) * 100}%`, width: `${((b - a) / span) * 100}%` };
  };
  const nowAt = `${((now.getTime() - start) / span) * 100}%`;
  const label = props.label ?? `Next ${days} days`;
  const hues = huesOf(props.rows);
  return (
    <figure class="oncall-timeline" aria-label={label} aria-busy={props.busy ? true : undefined}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take the keyboard */}
      <section class="oc-scroll" tabIndex={0} aria-label={`${label}, scrolls sideways`}>
        <div class="oc-grid" style={{ '--days': days }}>
          <div class="oc-row oc-head" aria-hidden="true">
            <span class="oc-label" />
            <div class="oc-track">
              {marks.slice(0, days).map((m, i) => (
                <span
                  key={m.getTime()}
                  class={i === 0 ? 'oc-day today' : 'oc-day'}
                  style={{
                    left: `${((m.getTime() - start) / span) * 100}%`,
                    width: `${(86_400_000 / span) * 100}%`,
                  }}
                >
                  {i === 0 ? 'Today' : dayLabel(m, props.tz)}
                </span>
              ))}
            </div>
          </div>
          {props.rows.map((row) => (
            <div key={row.label} class={row.final ? 'oc-row final' : 'oc-row'}>
              <span class="oc-label" title={row.label}>
                {row.label}
              </span>
              <ul class="oc-track" aria-label={row.label}>
                <li class="oc-today" aria-hidden="true" style={{ width: `${(86_400_000 / span) * 100}%` }} />
                {row.shifts.map((s) => {
                  const at = place(s.starts_at, s.ends_at);
                  if (!at) return null;
                  const email = s.user.email ?? 'a removed user';
                  const text = `${email}, ${spanIn(s.starts_at, s.ends_at, props.tz)}${s.source.kind === 'override' ? ' (override)' : ''}`;
                  return (
                    <li
                      key={`${s.starts_at}-${s.user.id}`}
                      class={s.source.kind === 'override' ? 'oc-bar override' : 'oc-bar'}
                      style={{ ...at, '--hue': hues.get(s.user.id) ?? 0 }}
                      title={text}
                      aria-label={text}
                    >
                      <span aria-hidden="true">{shortName(email)}</span>
                    </li>
                  );
                })}
                {row.final &&
                  props.gaps.map((g) => {
                    const at = place(g.starts_at, g.ends_at);
                    if (!at) return null;
                    const text = `Nobody on call, ${spanIn(g.starts_at, g.ends_at, props.tz)}`;
                    return (
                      <li key={`gap-${g.starts_at}`} class="oc-gap" style={at} title={text} aria-label={text}>
                        <span aria-hidden="true">!</span>
                      </li>
                    );
                  })}
                <li class="oc-now" aria-hidden="true" style={{ left: nowAt }} />
              </ul>
            </div>
          ))}
        </div>
      </section>
      <Legend rows={props.rows} hues={hues} />
      <GapWarning gaps={props.gaps} tz={props.tz} />
      <figcaption class="hint tight">
        Times in {props.tz}. Later layers win; overrides beat every layer.
      </figcaption>
    </figure>
  );
};

/** Nobody on call at some times: said in words, each span listed (the first few). */
export const GapWarning = (props: { gaps: Gap[]; tz: string }) =>
  props.gaps.length === 0 ? null : (
    <div class="warn-box oc-warning" role="note">
      <strong>
        Nobody is on call {props.gaps.length === 1 ? 'for 1 span' : `for ${props.gaps.length} spans`} in the
        next 14 days.
      </strong>{' '}
      An escalation step to this schedule finds nobody then and moves on.
      <ul>
        {props.gaps.slice(0, 5).map((g) => (
          <li key={g.starts_at}>{spanIn(g.starts_at, g.ends_at, props.tz)}</li>
        ))}
        {props.gaps.length > 5 && <li>and {props.gaps.length - 5} more</li>}
      </ul>
    </div>
  );

/** Whose colour is whose: the bars too short for a name are told apart by it. */
const Legend = (props: { rows: TimelineRow[]; hues: Map<string, number> }) => {
  const seen = new Map<string, string>();
  for (const r of props.rows) for (const s of r.shifts) seen.set(s.user.id, s.user.email ?? 'a removed user');
  if (seen.size === 0) return null;
  return (
    <ul class="oc-legend" aria-label="Who is who">
      {[...seen].map(([id, email]) => (
        <li key={id}>
          <span class="user-dot" style={{ '--hue': props.hues.get(id) ?? 0 }} aria-hidden="true" />
          {email}
        </li>
      ))}
    </ul>
  );
};
