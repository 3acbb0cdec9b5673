import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Me } from '../../api.js';
import { csvUrl, type Report, reportsApi } from '../../api-reports.js';
import { formatDateTime } from '../../format.js';
import { ErrorBox } from '../../kit/error-box.js';
import { Field, type Problems, problemsOf, TextField } from '../../kit/field.js';
import { navigate } from '../../router.js';
import { FigureCards, ResponseFigure, UptimeChart } from './report-figures.js';
import { periodText } from './report-format.js';
import {
  apiQueryOf,
  daysOf,
  PERIODS,
  type Period,
  type ReportView,
  SCOPES,
  searchOf,
  viewOf,
} from './report-query.js';
import { ScheduleSection } from './report-schedule.js';
import { IncidentsTable, MonitorsTable } from './report-tables.js';
import { ScopeFields } from './scope-fields.js';

/** The view in the URL, and a setter that writes it (replacing the history entry; Back leaves the page). */
const useView = (): [ReportView, (change: Partial<ReportView>) => void] => {
  const [view, setView] = useState(() => viewOf(location.search));
  // Two changes in one event (a field's change, then Enter) both land: each builds on the last.
  const latest = useRef(view);
  latest.current = view;
  useEffect(() => {
    const update = () => setView(viewOf(location.search));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  const change = (c: Partial<ReportView>) => {
    const next = { ...latest.current, ...c };
    latest.current = next;
    setView(next);
    navigate(`${location.pathname}${searchOf(next)}`, { replace: true });
  };
  return [view, change];
};

/** The choices: scope, period (custom days), SLO. Each applies when chosen (a typed field when left). */
const Controls = (props: {
  view: ReportView;
  problems: Problems;
  onChange: (c: Partial<ReportView>) => void;
}) => {
  const { view: v, problems: p } = props;
  const [slo, setSlo] = useState(v.slo);
  const [from, setFrom] = useState(v.from);
  const [to, setTo] = useState(v.to);
  useEffect(() => {
    setSlo(v.slo);
    setFrom(v.from);
    setTo(v.to);
  }, [v.slo, v.from, v.to]);
  const scopeParam = SCOPES.find((s) => s.value === v.scope)?.param ?? '';
  return (
    <form
      class="create-form report-controls"
      aria-label="Report settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onChange({ slo, from, to });
      }}
      onKeyDown={(e) => {
        // Enter applies what is typed (the form has no submit button to do it).
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement && e.target.type !== 'search') {
          e.preventDefault();
          props.onChange({ slo, from, to });
        }
      }}
    >
      <ScopeFields
        prefix="report"
        type={v.scope}
        id={v.id}
        problem={p[scopeParam]}
        onChange={(scope, id) => props.onChange({ scope, id })}
      />
      <Field id="report-period" label="Period">
        {(a) => (
          <select
            {...a}
            value={v.period}
            onChange={(e) => {
              const period = e.currentTarget.value as Period;
              // Custom starts from the days shown so far, to be changed.
              const days = period === 'custom' ? daysOf(v, new Date()) : { from: '', to: '' };
              props.onChange({ period, ...days });
            }}
          >
            {PERIODS.map((x) => (
              <option key={x.value} value={x.value}>
                {x.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {v.period === 'custom' && (
        <>
          <TextField
            id="report-from"
            label="From"
            type="date"
            problem={p.from}
            value={from}
            onValue={setFrom}
            onChange={(e) => props.onChange({ from: e.currentTarget.value })}
          />
          <TextField
            id="report-to"
            label="To"
            type="date"
            problem={p.to}
            value={to}
            onValue={setTo}
            onChange={(e) => props.onChange({ to: e.currentTarget.value })}
          />
        </>
      )}
      <TextField
        id="report-slo"
        label="SLO (%)"
        class="slo-field"
        inputMode="decimal"
        placeholder="99.9"
        problem={p.slo}
        value={slo}
        onValue={setSlo}
        onChange={(e) => props.onChange({ slo: e.currentTarget.value })}
      />
    </form>
  );
};

/**
 * `/reports`: the SLA report of the workspace, a monitor, a group, a tag or a status page over a month, a
 * quarter or any days (`GET /reports/sla`, the view in the URL): the figures, the daily uptime chart, the
 * response times, the monitors and the incidents; Download CSV (the API's CSV) and Print (a print
 * stylesheet makes a clean page or PDF). Admins also set the monthly report by mail here.
 */
export const ReportsPage = (props: { me: Me }) => {
  const [view, change] = useView();
  const [report, setReport] = useState<Report | null>(null);
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const query = apiQueryOf(view, new Date());
  const key = JSON.stringify(query);

  useEffect(() => {
    if (!query) {
      setReport(null);
      setProblems({});
      setError(null);
      return;
    }
    let live = true;
    setBusy(true);
    reportsApi.report(query).then(
      (r) => {
        if (!live) return;
        setReport(r);
        setProblems({});
        setError(null);
        setBusy(false);
      },
      (e) => {
        if (!live) return;
        setReport(null);
        if (e instanceof ApiError && e.details.length) {
          setProblems(problemsOf(e));
          setError('Correct the settings above to see the report.');
        } else {
          setProblems({});
          setError(e instanceof Error ? e.message : 'The report could not be made.');
        }
        setBusy(false);
      },
    );
    return () => {
      live = false;
    };
  }, [key]);

  return (
    <section class="page reports-page">
      <div class="page-head">
        <h1>SLA report</h1>
        <div class="report-actions">
          {query && report && (
            <a class="button" href={csvUrl(query)} download={`sla-report-${query.from}-${query.to}.csv`}>
              Download CSV
            </a>
          )}
          <button type="button" class="button" disabled={!report} onClick={() => window.print()}>
            Print
          </button>
        </div>
      </div>
      {report && (
        <p class="report-line">
          <strong>{report.scope.name}</strong> · {periodText(report.from, report.to)} · SLO{' '}
          {report.slo_percent} % · generated {formatDateTime(report.generated_at)}
        </p>
      )}
      <section class="panel report-settings" aria-label="Settings">
        <Controls view={view} problems={problems} onChange={change} />
      </section>
      <ErrorBox message={error} />
      {!query && <p class="notice">Choose what to report on.</p>}
      {query && !report && !error && busy && (
        <p class="muted" aria-busy="true">
          Making the report…
        </p>
      )}
      {report && (
        <div aria-busy={busy}>
          <FigureCards report={report} />
          <div class="report-figures">
            <section class="panel chart-panel" aria-labelledby="daily-title">
              <h2 id="daily-title">Uptime by day</h2>
              <UptimeChart days={report.days} />
            </section>
            <section class="panel rt-panel" aria-labelledby="rt-title">
              <h2 id="rt-title">Response time</h2>
              <ResponseFigure times={report.response_time_ms} />
            </section>
          </div>
          <section class="panel flush" aria-labelledby="monitors-title">
            <div class="panel-head">
              <h2 id="monitors-title">Monitors</h2>
              <span class="muted">{report.monitors.length}</span>
            </div>
            <MonitorsTable report={report} />
          </section>
          <section class="panel flush" aria-labelledby="incidents-title">
            <div class="panel-head">
              <h2 id="incidents-title">Incidents</h2>
              <span class="muted">{report.incident_count}</span>
            </div>
            <IncidentsTable report={report} />
          </section>
        </div>
      )}
      {props.me.user.role === 'admin' && (
        <section class="panel mail-panel" aria-labelledby="mail-title">
          <h2 id="mail-title">Monthly report by mail</h2>
          <ScheduleSection />
        </section>
      )}
    </section>
  );
};
