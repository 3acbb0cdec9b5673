/**
 * A multi-step or browser monitor's run on its page: each step with its verdict and duration (a bar
 * scaled to the longest), the failing step with its error (and the script's line), the page's Web
 * Vitals in plain words, console errors and failed requests, and the screenshot of a failure.
 * `useScriptRun` keeps the newest run, and after "Check now" waits for the very run that was asked for.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type CheckResult, type MonitorDetail, type ScriptRun } from '../api.js';
import { formatDateTime, fromNow } from '../format.js';
import { ms } from './monitors.js';

export const isScripted = (m: Pick<MonitorDetail, 'monitor_type'>) =>
  m.monitor_type === 'multistep' || m.monitor_type === 'browser';

/** How long "Check now" waits for its run before saying it did not come (an agent may be busy or away). */
const WAIT_MS = 120_000;
const FAST_POLL_MS = 1000;

type Shown =
  | { kind: 'latest'; run: ScriptRun | null | undefined }
  | { kind: 'waiting' }
  | { kind: 'asked'; run: ScriptRun }
  | { kind: 'late' };

const asked = (results: readonly CheckResult[]) =>
  new Set(results.filter((r) => r.run_now_request_id).map((r) => r.id));

/**
 * The run the panel shows: the monitor's newest (read again whenever a new result arrives), or,
 * after `ask()` (called just before "Check now" asks), the first run-now result that was not there
 * before it, polled every second until it comes.
 */
export const useScriptRun = (m: MonitorDetail | null, results: CheckResult[] | null) => {
  const [shown, setShown] = useState<Shown>({ kind: 'latest', run: undefined });
  const before = useRef<Set<string> | null>(null);
  const newest = results?.[0]?.id;
  const on = m !== null && isScripted(m);
  const id = m?.id;

  useEffect(() => {
    if (!on || !id || shown.kind !== 'latest') return;
    let live = true;
    api.latestScriptRun(id).then(
      (run) => live && setShown({ kind: 'latest', run }),
      () => live && setShown((s) => (s.kind === 'latest' && s.run === undefined ? { ...s, run: null } : s)),
    );
    return () => {
      live = false;
    };
  }, [on, id, newest, shown.kind]);

  useEffect(() => {
    if (shown.kind !== 'waiting' || !id) return;
    let live = true;
    const until = Date.now() + WAIT_MS;
    const tick = async () => {
      if (!live) return;
      try {
        // Until `ask` has noted the results already there, nothing is taken for the new run.
        const seen = before.current;
        const page = seen ? await api.listResults(id, 20) : { data: [] };
        const mine = page.data.find((r) => r.run_now_request_id && !seen?.has(r.id));
        const run = mine ? await api.scriptRun(id, mine.id) : null;
        if (!live) return;
        if (run) return setShown({ kind: 'asked', run });
      } catch {
        // The next tick tries again.
      }
      if (!live) return;
      if (Date.now() > until) return setShown({ kind: 'late' });
      setTimeout(tick, FAST_POLL_MS);
    };
    void tick();
    return () => {
      live = false;
    };
  }, [shown.kind, id]);

  return {
    shown: on ? shown : null,
    /** Before "Check now" asks: remembers the run-now results already there. */
    ask: async () => {
      if (!on || !id) return;
      before.current = null;
      setShown({ kind: 'waiting' });
      before.current = asked((await api.listResults(id, 100)).data);
    },
    /** Back to the newest run (a failed "Check now"). */
    reset: () => setShown({ kind: 'latest', run: undefined }),
  };
};

/** Google's thresholds for each vital: good up to the first, poor past the second. */
const rate = (v: number, good: number, poor: number) =>
  v <= good ? 'good' : v <= poor ? 'needs improvement' : 'poor';

const Vitals = (props: { v: NonNullable<ScriptRun['web_vitals']> }) => {
  const { ttfb_ms, lcp_ms, cls } = props.v;
  return (
    <dl class="vitals">
      <div>
        <dt>Time to first byte (TTFB)</dt>
        <dd>
          {ms(ttfb_ms)} <span class="muted">· {rate(ttfb_ms, 800, 1800)}</span>
        </dd>
        <dd class="hint tight">How long the server took to start answering the first page.</dd>
      </div>
      <div>
        <dt>Largest Contentful Paint (LCP)</dt>
        <dd>
          {lcp_ms === null ? 'Not measured' : ms(lcp_ms)}
          {lcp_ms !== null && <span class="muted"> · {rate(lcp_ms, 2500, 4000)}</span>}
        </dd>
        <dd class="hint tight">When the biggest text or image of the page appeared.</dd>
      </div>
      <div>
        <dt>Cumulative Layout Shift (CLS)</dt>
        <dd>
          {cls === null ? 'Not measured' : cls.toFixed(3)}
          {cls !== null && <span class="muted"> · {rate(cls, 0.1, 0.25)}</span>}
        </dd>
        <dd class="hint tight">How much the page jumped around while loading (0 is steady).</dd>
      </div>
    </dl>
  );
};

const Listed = (props: { title: string; items: string[] }) =>
  props.items.length === 0 ? null : (
    <details class="run-list">
      <summary>
        {props.title} ({props.items.length})
      </summary>
      <ul>
        {props.items.map((x, i) => (
          <li key={i}>
            <code>{x}</code>
          </li>
        ))}
      </ul>
    </details>
  );

const RunBody = (props: { run: ScriptRun; browser: boolean }) => {
  const r = props.run;
  const longest = Math.max(1, ...r.steps.map((s) => s.duration_ms));
  const failed = r.failed_step === null ? null : r.steps[r.failed_step - 1];
  return (
    <>
      <p class="run-when">
        <span class={`badge ${r.ok ? 'status-up' : 'status-down'}`}>{r.ok ? 'Passed' : 'Failed'}</span>{' '}
        <span class="muted" title={formatDateTime(r.started_at)}>
          {fromNow(r.started_at)} from {r.location}
        </span>
      </p>
      {r.steps.length === 0 ? (
        <p class="muted">{r.ok ? 'The run reported no steps.' : 'It failed before its first step.'}</p>
      ) : (
        <ol class="run-steps" aria-label="Steps">
          {r.steps.map((s, i) => {
            const isFailed = r.failed_step === i + 1;
            return (
              <li key={i} class={isFailed ? 'run-failed' : s.ok ? '' : 'run-not-ok'}>
                <div class="run-step-line">
                  <span class="run-step-name">
                    {i + 1}. {s.name}
                  </span>
                  <span class={`badge ${s.ok ? 'status-up' : 'status-down'}`}>{s.ok ? 'OK' : 'Failed'}</span>
                  {s.status_code !== null && <span class="muted small">HTTP {s.status_code}</span>}
                  <span class="run-step-ms">{ms(s.duration_ms)}</span>
                </div>
                <div class="run-bar" aria-hidden="true">
                  <span style={{ width: `${Math.max(1, (s.duration_ms / longest) * 100)}%` }} />
                </div>
                {isFailed && (s.error || r.error_line !== null) && (
                  <p class="run-error">
                    {s.error}
                    {props.browser && r.error_line !== null && <> (line {r.error_line} of the script)</>}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {r.web_vitals && <Vitals v={r.web_vitals} />}
      <Listed title="Console errors" items={r.console_errors} />
      <Listed title="Failed requests" items={r.failed_requests} />
      {r.screenshot && (
        <figure class="run-shot">
          <a href={r.screenshot.url} target="_blank" rel="noopener">
            <img
              src={r.screenshot.url}
              alt={`The page when ${failed ? `step ${r.failed_step} '${failed.name}'` : 'the run'} failed`}
            />
          </a>
          <figcaption class="muted small">
            The page when it failed. Select it to open it full size.
          </figcaption>
        </figure>
      )}
    </>
  );
};

export const ScriptRunPanel = (props: { shown: Shown; browser: boolean; onNewest: () => void }) => {
  const s = props.shown;
  const title = s.kind === 'asked' ? 'The run you asked for' : 'Last run';
  return (
    <section class="panel script-run" aria-labelledby="script-run-title">
      <div class="script-run-head">
        <h2 id="script-run-title">{title}</h2>
        {(s.kind === 'asked' || s.kind === 'late') && (
          <button type="button" class="button small" onClick={props.onNewest}>
            Show the newest run
          </button>
        )}
      </div>
      <div aria-live="polite">
        {s.kind === 'waiting' && <p class="muted">Waiting for the run you asked for…</p>}
        {s.kind === 'late' && (
          <p class="muted">
            The run you asked for has not come back yet: the region’s agents may be busy or offline. It shows
            in Recent results when it does.
          </p>
        )}
        {s.kind === 'latest' && s.run === undefined && <p class="muted">Loading…</p>}
        {s.kind === 'latest' && s.run === null && (
          <p class="empty flat">
            No run yet. After the first check, each step shows here with its time
            {props.browser ? ', and a failure with its screenshot' : ''}.
          </p>
        )}
      </div>
      {(s.kind === 'asked' || (s.kind === 'latest' && s.run)) && (
        <RunBody run={s.run as ScriptRun} browser={props.browser} />
      )}
    </section>
  );
};
