import { lazy, Suspense } from 'preact/compat';
import { useState } from 'preact/hooks';
import { type Alert, ApiError, api, type CheckResult, type Me, type MonitorDetail } from '../api.js';
import { duration, formatDate, formatDateTime, formatWhen, fromNow } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox, Loading, Notice } from '../kit/error-box.js';
import { LabelsLine } from '../kit/label-fields.js';
import { ListBody } from '../kit/paging.js';
import { takeFlash, usePoll } from '../poll.js';
import { followLink, navigate } from '../router.js';
import { Address } from '../routing-ui.js';
import { AlertStatusBadge } from './alerts.js';
import { DependenciesPanel } from './dependencies-panel.js';
import { assertionText } from './monitor-form/assertions-editor.js';
import { useTypeLabel } from './monitor-form/type-fields.js';
import { CheckBar, LastResponse, ms, percent, StatusBadge, target } from './monitors.js';
import { ScriptRunPanel, useScriptRun } from './script-run-panel.js';

/** uPlot and the chart: fetched when a detail page first shows, never on the first page load. */
const ResponseChart = lazy(() => import('./response-chart.js'));
/** Rows of the Recent results table (the page reads more, for the bar and the chart). */
const RESULTS_SHOWN = 20;

const phases = (r: CheckResult) =>
  r.timings
    ? [
        ['DNS', r.timings.dns_ms],
        ['connect', r.timings.connect_ms],
        ['TLS', r.timings.tls_ms],
        ['first byte', r.timings.first_byte_ms],
      ]
        .filter(([, v]) => (v as number) > 0)
        .map(([k, v]) => `${k} ${Math.round(v as number)}`)
        .join(' · ')
    : '';

/**
 * What a failed check says: its kind in words, then the agent's message — "Assertion failed: $.status
 * was "degraded", expected equals "ok"".
 */
const failureText = (r: CheckResult) => {
  const kind = r.error_kind
    ? `${r.error_kind[0]!.toUpperCase()}${r.error_kind.slice(1).replaceAll('_', ' ')}`
    : '';
  return [kind, r.error_message].filter(Boolean).join(': ');
};

/** Days left until a date, said plainly. */
const until = (iso: string) => {
  const days = Math.floor((Date.parse(iso) - Date.now()) / 86_400_000);
  return days < 0
    ? `expired ${fromNow(iso)}`
    : `${formatDate(iso)} (${days} ${days === 1 ? 'day' : 'days'} left)`;
};

/** `/monitors/{id}`: status, uptime, response time per region, recent results, expiry, alerts; live. */
export const MonitorDetailPage = (props: { me: Me; id: string }) => {
  const canEdit = props.me.user.role !== 'viewer';
  const [m, setM] = useState<MonitorDetail | null>(null);
  const [results, setResults] = useState<CheckResult[] | null>(null);
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(() => {
    const f = takeFlash();
    return f ? { ok: true, text: f } : null;
  });
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const scripted = useScriptRun(m, results);
  const typeLabel = useTypeLabel(m?.monitor_type);

  usePoll(async () => {
    try {
      const [monitor, page, open] = await Promise.all([
        api.getMonitor(props.id),
        api.listResults(props.id, 100),
        api.listAlerts({ source_type: 'monitor', source_id: props.id }),
      ]);
      setM(monitor);
      setResults(page.data);
      setAlerts(open.data.slice(0, 20));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The monitor could not be loaded.');
    }
  }, [props.id]);

  if (!m)
    return (
      <section class="page">
        <h1>Monitor</h1>
        <Loading error={error} />
      </section>
    );

  const act = async (what: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice({ ok: true, text: await what() });
    } catch (e) {
      setNotice({ ok: false, text: e instanceof Error ? e.message : 'That did not work.' });
    } finally {
      setBusy(false);
    }
  };
  const checkNow = () =>
    act(async () => {
      try {
        await scripted.ask();
        const r = await api.checkNow(m.id);
        return scripted.shown
          ? `Checking now from ${r.requested.join(', ')}. The run shows below when it comes back.`
          : `Checking now from ${r.requested.join(', ')}. Results appear here in a few seconds.`;
      } catch (e) {
        scripted.reset();
        if (e instanceof ApiError && e.status === 404)
          throw new Error(
            'This server does not offer “Check now” yet; the next scheduled check runs as usual.',
          );
        throw e;
      }
    });
  const pause = (paused: boolean) =>
    act(async () => {
      setM(await api.pauseMonitor(m.id, paused));
      return paused
        ? `${m.display_name} is paused: no checks run until it is resumed.`
        : `${m.display_name} runs again.`;
    });

  const newest = results ?? [];
  const tls = newest.find((r) => r.tls_valid_to)?.tls_valid_to ?? null;
  const domain = newest.find((r) => r.domain_expires_at)?.domain_expires_at ?? null;
  const chronological = [...newest].reverse();
  // Until the API carries them (issue 13 pins), the newest response time and checks come from the results.
  const lastResponse =
    m.last_response_time_ms ??
    (m.uptime_24h === undefined ? newest.find((r) => r.ok)?.response_time_ms : undefined);
  const checks =
    m.recent_checks ??
    (results
      ? newest
          .slice(0, 30)
          .reverse()
          .map((r) => ({
            at: r.scheduled_at,
            ok: r.ok,
            location: r.location,
            response_time_ms: r.ok ? r.response_time_ms : null,
          }))
      : undefined);
  const unresolved = (alerts ?? []).filter((a) => a.status !== 'resolved').length;

  return (
    <section class="page">
      <div class="page-head">
        <div>
          <div class="title-row">
            <h1>{m.display_name}</h1>
            <StatusBadge status={m.status} />
          </div>
          <p class="muted subtitle">
            {typeLabel} · <Address value={target(m)} /> · every {duration(m.check_interval_seconds)} from{' '}
            {m.check_locations.join(', ')}
          </p>
          <LabelsLine group_id={m.group_id} tags={m.tags} severity={m.severity} />
        </div>
      </div>
      {canEdit && (
        <div class="toolbar">
          <button type="button" class="button primary" disabled={busy || m.paused} onClick={checkNow}>
            Check now
          </button>
          <a class="button" href={`/monitors/${m.id}/edit`} onClick={followLink}>
            Edit
          </a>
          <button type="button" class="button" disabled={busy} onClick={() => pause(!m.paused)}>
            {m.paused ? 'Resume' : 'Pause'}
          </button>
          <button type="button" class="button danger-outline" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      )}
      <Notice notice={notice} />
      <ErrorBox message={error} />

      <dl class="stats">
        <div>
          <dt>Uptime 24 h</dt>
          <dd>{percent(m.uptime_24h)}</dd>
        </div>
        <div>
          <dt>Uptime 30 d</dt>
          <dd>{percent(m.uptime_30d)}</dd>
        </div>
        <div>
          <dt>Last response</dt>
          <dd>
            <LastResponse ms={lastResponse} checks={checks} />
          </dd>
        </div>
        <div>
          <dt>Last checked</dt>
          <dd>
            {m.last_checked_at ? (
              <span title={formatDateTime(m.last_checked_at)}>{fromNow(m.last_checked_at)}</span>
            ) : (
              'Not yet'
            )}
          </dd>
        </div>
        {(m.ssl_cert_monitoring || tls) && (
          <div>
            <dt>TLS certificate</dt>
            <dd>{tls ? `Valid until ${until(tls)}` : 'Not seen yet'}</dd>
          </div>
        )}
        {(m.monitor_type === 'domain' || domain) && (
          <div>
            <dt>Domain registration</dt>
            <dd>{domain ? `Expires ${until(domain)}` : 'Not seen yet'}</dd>
          </div>
        )}
      </dl>
      {checks && checks.length > 0 && (
        <div class="beats-wide">
          <CheckBar name={m.display_name} checks={checks} />
        </div>
      )}

      <DependenciesPanel
        kind="monitor"
        id={m.id}
        dependencies={m.dependencies ?? []}
        suppressedBy={m.suppressed_by ?? null}
      />

      {scripted.shown && (
        <ScriptRunPanel
          shown={scripted.shown}
          browser={m.monitor_type === 'browser'}
          onNewest={scripted.reset}
        />
      )}

      {m.shown_assertions && m.shown_assertions.length > 0 && (
        <section class="panel" aria-labelledby="checks-title">
          <h2 id="checks-title">What each check verifies</h2>
          <ul class="assertion-list">
            {m.shown_assertions.map((a, i) => (
              <li key={i}>
                <code>{assertionText(a)}</code>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section class="panel" aria-labelledby="chart-title">
        <h2 id="chart-title">Response time by region</h2>
        {chronological.some((r) => r.ok) ? (
          <Suspense fallback={<div class="chart" aria-busy="true" />}>
            <ResponseChart
              results={chronological}
              label={`Response time of the last ${chronological.length} checks by region`}
            />
          </Suspense>
        ) : (
          <p class="empty flat">{results ? 'No successful checks to chart yet.' : 'Loading…'}</p>
        )}
      </section>

      <section class="panel flush" aria-labelledby="alerts-title">
        <div class="panel-head">
          <h2 id="alerts-title">Alerts</h2>
          <span class="muted">{alerts ? `${unresolved} unresolved` : ''}</span>
        </div>
        {alerts && alerts.length === 0 && <p class="empty">No alerts from this monitor.</p>}
        {alerts && alerts.length > 0 && (
          <ul class="alert-list">
            {alerts.map((a) => (
              <li key={a.id}>
                <a href={`/alerts/${a.id}`} onClick={followLink}>
                  {a.title}
                </a>{' '}
                <AlertStatusBadge status={a.status} />{' '}
                <span class="muted small" title={formatDateTime(a.created_at)}>
                  raised {fromNow(a.created_at)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section class="panel flush" aria-labelledby="results-title">
        <div class="panel-head">
          <h2 id="results-title">Recent results</h2>
          <span class="muted">
            {results?.length ? `newest ${Math.min(results.length, RESULTS_SHOWN)}` : ''}
          </span>
        </div>
        <ListBody items={results} empty="No checks yet.">
          {(results) => (
            <table class="keys results">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Region</th>
                  <th scope="col">Result</th>
                  <th scope="col">Time</th>
                  <th scope="col">Phases (ms)</th>
                </tr>
              </thead>
              <tbody>
                {results.slice(0, RESULTS_SHOWN).map((r) => (
                  <tr key={r.id}>
                    <td data-label="When" title={formatDateTime(r.scheduled_at)}>
                      {formatWhen(r.scheduled_at)}
                    </td>
                    <td data-label="Region">{r.location}</td>
                    <td data-label="Result" class="wrap">
                      {r.ok ? (
                        <span class="badge status-up">OK{r.status_code ? ` ${r.status_code}` : ''}</span>
                      ) : (
                        <>
                          <span class="badge status-down">
                            Failed{r.status_code ? ` ${r.status_code}` : ''}
                          </span>
                          <span class="block small result-error">{failureText(r)}</span>
                        </>
                      )}
                    </td>
                    <td data-label="Time" class="num">
                      {ms(r.response_time_ms)}
                    </td>
                    <td data-label="Phases (ms)" class="small muted">
                      {phases(r) || '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
      </section>

      {deleting && (
        <Confirm
          title={`Delete ${m.display_name}?`}
          body="Its checks stop and its results are deleted. This cannot be undone."
          action="Delete"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await api.deleteMonitor(m.id);
            navigate('/monitors');
          }}
        />
      )}
    </section>
  );
};
