import { uptimeBand } from '../../../../src/http/status-public/uptime-band.js';
import type { Report, ReportDay } from '../../api-reports.js';
import { dayText, ms, pct, span } from './report-format.js';

/** One figure: its name (a term) and its value with a note (the definition beside it). */
const Card = (props: { label: string; value: string; note?: string | undefined; tone?: string }) => (
  <div class={`figure-card${props.tone ? ` ${props.tone}` : ''}`}>
    <dt class="figure-label">{props.label}</dt>
    <dd>
      <span class="figure-value">{props.value}</span>
      {props.note && <span class="figure-note">{props.note}</span>}
    </dd>
  </div>
);

/** The scope's figures: uptime (without and with maintenance), downtime, incidents, MTTA, MTTR, p95, error budget left. */
export const FigureCards = (props: { report: Report }) => {
  const r = props.report;
  const under = r.uptime_percent !== null && r.uptime_percent < r.slo_percent;
  return (
    <dl class="figure-cards" aria-label="Figures">
      <Card
        label="Uptime"
        value={pct(r.uptime_percent)}
        note={`SLO ${r.slo_percent} %`}
        tone={under ? 'bad' : r.uptime_percent === null ? '' : 'good'}
      />
      <Card
        label="Uptime incl. maintenance"
        value={pct(r.uptime_percent_with_maintenance)}
        note={`${r.checks.total.toLocaleString('en')} checks`}
      />
      <Card
        label="Downtime"
        value={span(r.downtime_seconds)}
        note={r.maintenance_seconds ? `${span(r.maintenance_seconds)} maintenance left out` : undefined}
      />
      <Card label="Incidents" value={String(r.incident_count)} />
      <Card label="MTTA" value={span(r.mtta_seconds)} note="Mean time to acknowledge" />
      <Card label="MTTR" value={span(r.mttr_seconds)} note="Mean time to resolve" />
      <Card label="p95" value={ms(r.response_time_ms.p95)} note="Response time" />
      <Card
        label="Error budget left"
        value={span(r.error_budget_seconds_left)}
        note={`of ${span(r.allowed_downtime_seconds)} allowed`}
        tone={r.error_budget_seconds_left < 0 ? 'bad' : ''}
      />
    </dl>
  );
};

/** The bottom of the chart's scale: the band the lowest day falls in, so a 99.5 % day still shows its dip. */
const floorOf = (days: ReportDay[]) => {
  const lows = days.map((d) => d.uptime_percent).filter((u): u is number => u !== null);
  const low = lows.length ? Math.min(...lows) : 100;
  return low >= 99 ? 99 : low >= 95 ? 95 : low >= 90 ? 90 : 0;
};

/** What the chart says in words: its days, and its worst day. */
const chartLabel = (days: ReportDay[]) => {
  const known = days.filter((d) => d.uptime_percent !== null);
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return 'Uptime by day: no days';
  const range = `${dayText(first.day)} to ${dayText(last.day)}`;
  if (!known.length) return `Uptime by day, ${range}: no checks`;
  const worst = known.reduce((a, b) => ((b.uptime_percent ?? 100) < (a.uptime_percent ?? 100) ? b : a));
  return `Uptime by day, ${range}: lowest ${pct(worst.uptime_percent)} on ${dayText(worst.day)}, ${
    known.length
  } of ${days.length} days with checks`;
};

/**
 * A bar per UTC day, its height the day's uptime (maintenance left out) on a scale from the band of the
 * lowest day to 100 %, coloured as the status page colours its bars (uptime-band.ts); a day without
 * checks is a short grey stub. One image with a label in words; each bar's title names its day.
 */
export const UptimeChart = (props: { days: ReportDay[] }) => {
  const days = props.days;
  const floor = floorOf(days);
  const w = 10;
  const height = (u: number | null) => (u === null ? 3 : Math.max(4, ((u - floor) / (100 - floor)) * 100));
  return (
    <figure class="report-chart">
      <div class="chart-frame">
        <div class="chart-axis" aria-hidden="true">
          <span>100 %</span>
          <span>{floor} %</span>
        </div>
        <svg
          role="img"
          aria-label={chartLabel(days)}
          viewBox={`0 0 ${Math.max(1, days.length) * w} 100`}
          preserveAspectRatio="none"
        >
          <line class="chart-grid" x1="0" x2={days.length * w} y1="0.5" y2="0.5" />
          {days.map((d, i) => {
            const h = height(d.uptime_percent);
            return (
              <rect
                key={d.day}
                class={`bar band-${uptimeBand(d.uptime_percent)}`}
                x={i * w + 1}
                width={w - 2}
                y={100 - h}
                height={h}
              >
                <title>{`${dayText(d.day)}: ${
                  d.uptime_percent === null ? 'no checks' : `${pct(d.uptime_percent)} uptime`
                }`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <figcaption class="chart-days" aria-hidden="true">
        <span>{days[0] && dayText(days[0].day)}</span>
        <span>{days.length > 1 && dayText(days[days.length - 1]!.day)}</span>
      </figcaption>
    </figure>
  );
};

/** p50, p95 and p99 as bars on one scale (the longest the largest), each with its value in words. */
export const ResponseFigure = (props: { times: Report['response_time_ms'] }) => {
  const t = props.times;
  const rows = [
    ['p50', t.p50],
    ['p95', t.p95],
    ['p99', t.p99],
  ] as const;
  const top = Math.max(1, ...rows.map(([, v]) => v ?? 0));
  if (t.p50 === null && t.p95 === null && t.p99 === null)
    return <p class="muted">Nothing measured in this period.</p>;
  return (
    <dl class="rt-bars" aria-label="Response time percentiles">
      {rows.map(([name, v]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            <span class="rt-bar" style={{ width: `${v === null ? 0 : Math.max(1, (v / top) * 66)}%` }} />
            <span class="rt-value">{ms(v)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
};
