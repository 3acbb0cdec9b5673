import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api.js';
import {
  type Heartbeat,
  type HeartbeatInput,
  type HeartbeatState,
  type Ping,
  type Policy,
  routingApi,
} from '../api-routing.js';
import { duration, formatDateTime, fromNow } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { Field, type Problems, problemsOf } from '../kit/field.js';
import { usePoll } from '../poll.js';
import { followLink, navigate } from '../router.js';
import { CopyValue, Snippet } from '../routing-ui.js';

const STATES: Record<HeartbeatState, { label: string; css: string }> = {
  new: { label: 'New', css: 'pending' },
  up: { label: 'Up', css: 'up' },
  late: { label: 'Late', css: 'late' },
  down: { label: 'Down', css: 'down' },
  paused: { label: 'Paused', css: 'paused' },
};

export const StateBadge = (props: { state: HeartbeatState }) => (
  <span class={`badge status-${STATES[props.state].css}`}>
    <span class="dot" aria-hidden="true" />
    {STATES[props.state].label}
  </span>
);

/** The API counts seconds; the form counts minutes, and so do its messages. */
const minutesMessage = (m: string | undefined) =>
  m?.replace(/(at (?:least|most)) (\d+)$/, (_, w: string, n: string) => {
    const s = Number(n);
    return s % 60 === 0 ? `${w} ${s / 60} minute${s === 60 ? '' : 's'}` : `${w} ${s} seconds`;
  });

const minutes = (v: string) => (v.trim() === '' ? undefined : Math.round(Number(v) * 60));

/** Name, period, grace and policy: the create form and the edit form. */
const HeartbeatForm = (props: {
  initial?: Heartbeat;
  submit: string;
  onSubmit: (body: HeartbeatInput) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const [name, setName] = useState(i?.display_name ?? '');
  const [period, setPeriod] = useState(i ? String(i.period_seconds / 60) : '1440');
  const [grace, setGrace] = useState(i ? String(i.grace_seconds / 60) : '60');
  const [policy, setPolicy] = useState(i?.escalation_policy_id ?? '');
  const [policies, setPolicies] = useState<Policy[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    routingApi.listPolicies().then(
      (p) => setPolicies(p.data),
      () => setPolicies([]),
    );
  }, []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: HeartbeatInput = {
        display_name: name,
        period_seconds: minutes(period),
        grace_seconds: minutes(grace),
        ...(policy ? { escalation_policy_id: policy } : {}),
      };
      await props.onSubmit(body);
      setProblems({});
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const prefix = i ? 'edit-hb' : 'new-hb';
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={props.submit}>
      <ErrorBox message={problems.form} />
      <Field id={`${prefix}-name`} label="Name" problem={problems.display_name} class="grow">
        {(a) => (
          <input
            {...a}
            type="text"
            maxLength={200}
            placeholder="e.g. Nightly backup"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        id={`${prefix}-period`}
        label="Period (minutes)"
        problem={minutesMessage(problems.period_seconds)}
        hint="How often the job runs."
      >
        {(a) => (
          <input
            {...a}
            type="number"
            min={1}
            inputMode="numeric"
            value={period}
            onInput={(e) => setPeriod(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        id={`${prefix}-grace`}
        label="Grace (minutes)"
        problem={minutesMessage(problems.grace_seconds)}
        hint="How late a ping may be."
      >
        {(a) => (
          <input
            {...a}
            type="number"
            min={0}
            inputMode="numeric"
            value={grace}
            onInput={(e) => setGrace(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field id={`${prefix}-policy`} label="Escalation policy" problem={problems.escalation_policy_id}>
        {(a) => (
          <select {...a} value={policy} onChange={(e) => setPolicy(e.currentTarget.value)}>
            {!i && <option value="">Workspace default</option>}
            {policies.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.is_default ? ' (default)' : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          {props.submit}
        </button>
        {props.onCancel && (
          <button type="button" class="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
};

const LastPing = (props: { h: Heartbeat }) =>
  props.h.last_ping_at ? (
    <span title={formatDateTime(props.h.last_ping_at)}>{fromNow(props.h.last_ping_at)}</span>
  ) : (
    <span class="muted">Never</span>
  );

/** `/heartbeats`: every heartbeat with its state, last ping, period and grace; create one. */
export const HeartbeatsPage = (props: { me: Me }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [list, setList] = useState<Heartbeat[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  /** Once more pages are shown, polling leaves the list alone. */
  const [expanded, setExpanded] = useState(false);
  const load = () =>
    routingApi.listHeartbeats().then(
      (p) => {
        setList(p.data);
        setNext(p.next_cursor);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  // The first page is re-read while the tab is visible; once more pages are shown, the list is left alone.
  usePoll(async () => {
    if (!expanded) await load();
  }, [expanded]);
  const more = async () => {
    if (!next) return;
    try {
      const p = await routingApi.listHeartbeats(next);
      setExpanded(true);
      setList((l) => [...(l ?? []), ...p.data]);
      setNext(p.next_cursor);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'More heartbeats could not be loaded.');
    }
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>Heartbeats</h1>
        {canWrite && !creating && (
          <button type="button" class="button primary" onClick={() => setCreating(true)}>
            New heartbeat
          </button>
        )}
      </div>
      <p class="lead">
        A job pings its heartbeat’s URL each time it runs. When a ping is later than its period plus grace, or
        the job reports a failure, Lookout raises an alert.
      </p>
      {canWrite && (creating || list?.length === 0) && (
        <section class="panel" aria-labelledby="new-hb-title">
          <h2 id="new-hb-title">New heartbeat</h2>
          <HeartbeatForm
            submit="Create heartbeat"
            onSubmit={async (body) => {
              const h = await routingApi.createHeartbeat(body);
              navigate(`/heartbeats/${h.id}`);
            }}
            {...(list?.length ? { onCancel: () => setCreating(false) } : {})}
          />
        </section>
      )}
      <section class="panel flush" aria-labelledby="hb-list-title">
        <div class="panel-head">
          <h2 id="hb-list-title">All heartbeats</h2>
          <span class="muted">{list ? `${list.length}${next ? '+' : ''}` : ''}</span>
        </div>
        {error && (
          <p class="error-box inset" role="alert">
            {error}
          </p>
        )}
        {list?.length === 0 && <p class="empty">No heartbeats yet.</p>}
        {list && list.length > 0 && (
          <div class="table-wrap">
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">State</th>
                  <th scope="col">Last ping</th>
                  <th scope="col">Period</th>
                  <th scope="col">Grace</th>
                </tr>
              </thead>
              <tbody>
                {list.map((h) => (
                  <tr key={h.id}>
                    <th scope="row" class="key-name">
                      <a href={`/heartbeats/${h.id}`} onClick={followLink}>
                        {h.display_name}
                      </a>
                    </th>
                    <td data-label="State">
                      <StateBadge state={h.state} />
                    </td>
                    <td data-label="Last ping">
                      <LastPing h={h} />
                    </td>
                    <td data-label="Period">{duration(h.period_seconds)}</td>
                    <td data-label="Grace">{duration(h.grace_seconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {next && (
          <div class="panel-foot">
            <button type="button" class="button" onClick={more}>
              Show more
            </button>
          </div>
        )}
      </section>
    </section>
  );
};

const KIND: Record<Ping['kind'], string> = { success: 'Success', start: 'Start', fail: 'Failure' };

const ms = (n: number) =>
  n < 1000 ? `${n} ms` : n < 60_000 ? `${(n / 1000).toFixed(1)} s` : duration(Math.round(n / 1000));

/** A crontab schedule that fits the period, for the example. */
const cronFor = (period: number) => {
  if (period % 86_400 === 0) return '0 3 * * *';
  if (period === 3600) return '0 * * * *';
  if (period % 3600 === 0 && period < 86_400) return `0 */${period / 3600} * * *`;
  if (period < 3600 && period % 60 === 0) return `*/${period / 60} * * * *`;
  return '0 * * * *';
};

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

const PingSnippets = (props: { h: Heartbeat }) => {
  const url = props.h.ping_url;
  return (
    <section class="panel" aria-labelledby="send-pings-title">
      <h2 id="send-pings-title">Send pings</h2>
      <p class="muted">
        The URL is the secret: anyone who has it can ping. GET, HEAD and POST all work; a POST body (the job’s
        output, up to 10,000 bytes) is kept with the ping.
      </p>
      <Snippet wrap title="When the job succeeds" code={`${CURL} ${url}`} />
      <Snippet
        wrap
        title="In cron"
        code={`${cronFor(props.h.period_seconds)} /usr/local/bin/job.sh && ${CURL} ${url}`}
      />
      <Snippet wrap title="With the exit status" code={`/usr/local/bin/job.sh\n${CURL} ${url}/$?`} />
      <Snippet
        wrap
        title="Start, then success or failure (measures the run)"
        code={`RID=$(uuidgen)\n${CURL} "${url}/start?rid=$RID"\nif /usr/local/bin/job.sh; then\n  ${CURL} "${url}?rid=$RID"\nelse\n  ${CURL} "${url}/fail?rid=$RID"\nfi`}
      />
      <Snippet
        wrap
        title="Failure with the job’s output"
        code={`/usr/local/bin/job.sh > /tmp/job.log 2>&1 || curl -fsS -m 10 --retry 5 --data-binary @/tmp/job.log ${url}/fail`}
      />
    </section>
  );
};

/** `/heartbeats/{uuid}`: its state, ping URL and snippets, the ping log; edit, pause, delete. */
export const HeartbeatPage = (props: { me: Me; id: string }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [h, setH] = useState<Heartbeat | null>(null);
  const [pings, setPings] = useState<Ping[] | null>(null);
  const [older, setOlder] = useState<string | null>(null);
  /** Once older pings are shown, polling re-reads only the heartbeat, not the log. */
  const [expanded, setExpanded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      const [hb, page] = await Promise.all([
        routingApi.getHeartbeat(props.id),
        routingApi.listPings(props.id),
      ]);
      setH(hb);
      setExpanded(false);
      setPings(page.data);
      setOlder(page.next_cursor);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The heartbeat could not be loaded.');
    }
  };
  // Polling replaces the ping log's first page; once older pages are open, only the heartbeat is re-read.
  usePoll(async () => {
    if (expanded) await routingApi.getHeartbeat(props.id).then(setH, () => {});
    else if (!editing) await load();
  }, [props.id, expanded, editing]);

  const showOlder = async () => {
    if (!older) return;
    try {
      const page = await routingApi.listPings(props.id, older);
      setExpanded(true);
      setPings((p) => [...(p ?? []), ...page.data]);
      setOlder(page.next_cursor);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Older pings could not be loaded.');
    }
  };

  const setPaused = async (paused: boolean) => {
    setBusy(true);
    try {
      setH(await routingApi.updateHeartbeat(props.id, { paused }));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };

  if (!h)
    return (
      <section class="page">
        <p>
          <a href="/heartbeats" onClick={followLink}>
            ← Heartbeats
          </a>
        </p>
        {error ? (
          <p class="error-box" role="alert">
            {error}
          </p>
        ) : (
          <div aria-busy="true" />
        )}
      </section>
    );

  return (
    <section class="page">
      <p class="crumb">
        <a href="/heartbeats" onClick={followLink}>
          ← Heartbeats
        </a>
      </p>
      <div class="page-head">
        <h1>{h.display_name}</h1>
        <div class="actions-row">
          <button type="button" class="button" onClick={() => void load()}>
            Refresh
          </button>
          {canWrite && !editing && (
            <>
              <button type="button" class="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" class="button" disabled={busy} onClick={() => setPaused(!h.paused)}>
                {h.paused ? 'Resume' : 'Pause'}
              </button>
              <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      {error && (
        <p class="error-box" role="alert">
          {error}
        </p>
      )}
      {editing ? (
        <section class="panel" aria-labelledby="edit-hb-title">
          <h2 id="edit-hb-title">Edit heartbeat</h2>
          <HeartbeatForm
            initial={h}
            submit="Save"
            onCancel={() => setEditing(false)}
            onSubmit={async (body) => {
              setH(await routingApi.updateHeartbeat(props.id, body));
              setEditing(false);
            }}
          />
        </section>
      ) : (
        <dl class="facts">
          <div>
            <dt>State</dt>
            <dd role="status" aria-label="State">
              <StateBadge state={h.state} />
              {h.state === 'down' && h.alert_id && (
                <>
                  {' '}
                  <a class="small" href={`/alerts/${h.alert_id}`} onClick={followLink}>
                    View alert
                  </a>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Last ping</dt>
            <dd>
              <LastPing h={h} />
            </dd>
          </div>
          <div>
            <dt>Period</dt>
            <dd>{duration(h.period_seconds)}</dd>
          </div>
          <div>
            <dt>Grace</dt>
            <dd>{duration(h.grace_seconds)}</dd>
          </div>
          {h.started_at && (
            <div>
              <dt>Running since</dt>
              <dd title={formatDateTime(h.started_at)}>{fromNow(h.started_at)}</dd>
            </div>
          )}
        </dl>
      )}

      <section class="panel" aria-labelledby="ping-url-title">
        <h2 id="ping-url-title">Ping URL</h2>
        <CopyValue label="Ping URL" copyLabel="Copy ping URL" value={h.ping_url} />
      </section>

      <section class="panel flush" aria-labelledby="ping-log-title">
        <div class="panel-head">
          <h2 id="ping-log-title">Ping log</h2>
          <span class="muted">newest first</span>
        </div>
        {pings?.length === 0 && <p class="empty">No pings yet.</p>}
        {pings && pings.length > 0 && (
          <div class="table-wrap">
            <table class="keys pings" aria-labelledby="ping-log-title">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Exit status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Run id</th>
                  <th scope="col">Body</th>
                  <th scope="col">From</th>
                </tr>
              </thead>
              <tbody>
                {pings.map((p) => (
                  <tr key={p.id}>
                    <th scope="row" title={`received ${formatDateTime(p.received_at)}`}>
                      {formatDateTime(p.at)}
                    </th>
                    <td data-label="Kind">
                      <span class={`kind kind-${p.kind}`}>{KIND[p.kind]}</span>
                    </td>
                    <td data-label="Exit status" class={p.exit_status === null ? 'none' : undefined}>
                      {p.exit_status ?? <span class="muted">–</span>}
                    </td>
                    <td data-label="Duration" class={p.duration_ms === null ? 'none' : undefined}>
                      {p.duration_ms === null ? <span class="muted">–</span> : ms(p.duration_ms)}
                    </td>
                    <td data-label="Run id" class={p.rid ? undefined : 'none'}>
                      {p.rid ? <code>{p.rid}</code> : <span class="muted">–</span>}
                    </td>
                    <td data-label="Body" class={p.body ? 'ping-body' : 'ping-body none'}>
                      {p.body ? <code>{p.body}</code> : <span class="muted">–</span>}
                    </td>
                    <td data-label="From" class="muted">
                      {p.source ?? '–'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {older && (
          <div class="panel-foot">
            <button type="button" class="button" onClick={showOlder}>
              Show older pings
            </button>
          </div>
        )}
      </section>
      <PingSnippets h={h} />

      {confirming && (
        <Confirm
          title={`Delete “${h.display_name}”?`}
          body="Its ping URL stops working at once and its ping log is deleted. Jobs still pinging it get 404."
          action="Delete"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await routingApi.deleteHeartbeat(props.id);
            navigate('/heartbeats');
          }}
        />
      )}
    </section>
  );
};
