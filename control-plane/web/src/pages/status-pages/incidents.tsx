/** A status page's incidents: report one, post its updates, resolve it, publish or discard a draft, a post-mortem. */
import { useState } from 'preact/hooks';
import {
  type ComponentStatus,
  type Incident,
  type IncidentStatus,
  type StatusPage,
  statusApi,
} from '../../api-status.js';
import { formatDateTime } from '../../format.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox, Notice } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../../kit/field.js';
import {
  ComponentStatusOptions,
  componentStatusLabel,
  INCIDENT_STATUSES,
  incidentStatusLabel,
} from './status-words.js';

type Affected = Record<string, ComponentStatus>;

/** Problems of `components.<id>` as one line, with the component's name. */
const affectedProblem = (p: Problems, page: StatusPage) =>
  Object.entries(p)
    .filter(([k, v]) => v && (k === 'components' || k.startsWith('components.')))
    .map(([k, v]) => {
      const c = page.components.find((x) => `components.${x.id}` === k);
      return c ? `${c.name}: ${v}` : v;
    })
    .join('; ') || undefined;

/**
 * One select per component of the page: how badly the incident affects it. `fixed` components (already
 * named by the incident) have no "Not affected": an update can state a better status, not unsay one.
 */
const AffectedPicker = (props: {
  id: string;
  page: StatusPage;
  value: Affected;
  fixed?: Affected;
  problem?: string | undefined;
  onChange: (v: Affected) => void;
}) => {
  if (props.page.components.length === 0) return null;
  return (
    <fieldset class="affected" aria-describedby={props.problem ? `${props.id}-problem` : undefined}>
      <legend>Affected components</legend>
      <div class="affected-grid">
        {props.page.components.map((c) => (
          <div class="field" key={c.id}>
            <label for={`${props.id}-${c.id}`}>{c.name}</label>
            <select
              id={`${props.id}-${c.id}`}
              value={props.value[c.id] ?? ''}
              onChange={(e) => {
                const v = e.currentTarget.value as ComponentStatus | '';
                const next = { ...props.value };
                if (v) next[c.id] = v;
                else delete next[c.id];
                props.onChange(next);
              }}
            >
              {!props.fixed?.[c.id] && <option value="">Not affected</option>}
              <ComponentStatusOptions />
            </select>
          </div>
        ))}
      </div>
      {props.problem && (
        <p class="field-problem" id={`${props.id}-problem`}>
          {props.problem}
        </p>
      )}
    </fieldset>
  );
};

const StatusSelect = (props: {
  id: string;
  value: IncidentStatus;
  problem?: string | undefined;
  onChange: (v: IncidentStatus) => void;
}) => (
  <Field id={props.id} label="Status" problem={props.problem}>
    {(a) => (
      <select
        {...a}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value as IncidentStatus)}
      >
        {INCIDENT_STATUSES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
    )}
  </Field>
);

const MessageField = (props: {
  id: string;
  value: string;
  problem?: string | undefined;
  onChange: (v: string) => void;
}) => (
  <Field
    id={props.id}
    label="Message"
    problem={props.problem}
    hint="What your customers read: what happens, what you do, when you say more."
    class="wide"
  >
    {(a) => (
      <textarea
        {...a}
        rows={3}
        maxLength={10_000}
        value={props.value}
        onInput={(e) => props.onChange(e.currentTarget.value)}
      />
    )}
  </Field>
);

/** **Report incident**: Title, Message, Status, the affected components; optionally kept as a draft. */
export const ReportIncidentForm = (props: {
  page: StatusPage;
  onDone: (i: Incident) => void;
  onCancel: () => void;
}) => {
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [status, setStatus] = useState<IncidentStatus>('investigating');
  const [affected, setAffected] = useState<Affected>({});
  const [draft, setDraft] = useState(false);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      props.onDone(
        await statusApi.reportIncident(props.page.id, {
          title,
          message,
          status,
          components: affected,
          published: !draft,
        }),
      );
    } catch (err) {
      setProblems(problemsOf(err));
      setBusy(false);
    }
  };
  return (
    <form class="monitor-form incident-form" onSubmit={submit} noValidate aria-label="Report incident">
      <ErrorSummary problems={problems} />
      <div class="grid">
        <TextField
          id="ri-title"
          label="Title"
          problem={problems.title}
          class="wide"
          maxLength={200}
          placeholder="Card payments failing"
          value={title}
          onValue={setTitle}
        />
        <MessageField id="ri-message" value={message} problem={problems.message} onChange={setMessage} />
        <StatusSelect id="ri-status" value={status} problem={problems.status} onChange={setStatus} />
      </div>
      <AffectedPicker
        id="ri-components"
        page={props.page}
        value={affected}
        problem={affectedProblem(problems, props.page)}
        onChange={setAffected}
      />
      <label class="check">
        <input type="checkbox" checked={draft} onChange={(e) => setDraft(e.currentTarget.checked)} />
        Keep it a draft: shown to nobody until published
      </label>
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          Report incident
        </button>
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
};

/** An update to an open incident: status, message, what it now says of each component; or resolve it. */
const UpdateForm = (props: { page: StatusPage; incident: Incident; onDone: (i: Incident) => void }) => {
  const i = props.incident;
  const [status, setStatus] = useState<IncidentStatus>(i.status);
  const [message, setMessage] = useState('');
  const [affected, setAffected] = useState<Affected>(i.components);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const post = async (as: IncidentStatus) => {
    setBusy(true);
    try {
      // Only what changed: the incident keeps what it said of every other component.
      const changed = Object.fromEntries(
        Object.entries(affected).filter(([id, s]) => i.components[id] !== s),
      );
      const next = await statusApi.postUpdate(props.page.id, i.id, {
        status: as,
        message,
        ...(Object.keys(changed).length ? { components: changed } : {}),
      });
      setMessage('');
      setProblems({});
      setStatus(next.status);
      setAffected(next.components);
      props.onDone(next);
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const id = `iu-${i.id}`;
  return (
    <form
      class="monitor-form incident-form"
      noValidate
      aria-label={`Update ${i.title}`}
      onSubmit={(e) => {
        e.preventDefault();
        void post(status);
      }}
    >
      <h4>Post an update</h4>
      <ErrorSummary problems={problems} />
      <div class="grid">
        <MessageField id={`${id}-message`} value={message} problem={problems.message} onChange={setMessage} />
        <StatusSelect id={`${id}-status`} value={status} problem={problems.status} onChange={setStatus} />
      </div>
      <AffectedPicker
        id={`${id}-components`}
        page={props.page}
        value={affected}
        fixed={i.components}
        problem={affectedProblem(problems, props.page)}
        onChange={setAffected}
      />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          Post update
        </button>
        {i.status !== 'resolved' && (
          <button type="button" class="button" disabled={busy} onClick={() => void post('resolved')}>
            Resolve
          </button>
        )}
      </div>
    </form>
  );
};

/** The post-mortem of a resolved incident: Markdown, rendered safely on the public page. */
const PostmortemForm = (props: { page: StatusPage; incident: Incident; onDone: (i: Incident) => void }) => {
  const i = props.incident;
  const [text, setText] = useState(i.postmortem ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `pm-${i.id}`;
  return (
    <form
      class="monitor-form incident-form"
      noValidate
      aria-label={`Post-mortem of ${i.title}`}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          props.onDone(
            await statusApi.editIncident(props.page.id, i.id, { postmortem: text.trim() || null }),
          );
          setProblems({});
          setNotice({ ok: true, text: text.trim() ? 'Post-mortem saved.' : 'Post-mortem removed.' });
        } catch (err) {
          setProblems(problemsOf(err));
          setNotice(null);
        } finally {
          setBusy(false);
        }
      }}
    >
      <ErrorSummary problems={problems} />
      <Field
        id={id}
        label="Post-mortem (Markdown)"
        problem={problems.postmortem ?? problems.form}
        hint="What happened, why, and what changes; shown under the incident on the public page."
        class="wide"
      >
        {(a) => (
          <textarea
            {...a}
            rows={6}
            maxLength={100_000}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        )}
      </Field>
      <Notice notice={notice} />
      <div class="form-actions">
        <button type="submit" class="button" disabled={busy}>
          Save post-mortem
        </button>
      </div>
    </form>
  );
};

/** One incident: what it says, its updates (newest first) and, for writers, what can be done with it. */
export const IncidentCard = (props: {
  page: StatusPage;
  incident: Incident;
  canWrite: boolean;
  onChanged: (i: Incident | null) => void;
}) => {
  const i = props.incident;
  const [confirm, setConfirm] = useState<'discard' | 'delete' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = (id: string) => props.page.components.find((c) => c.id === id)?.name ?? 'A removed component';
  const resolved = i.status === 'resolved';
  const titleId = `inc-${i.id}-title`;
  const publish = async () => {
    setBusy(true);
    try {
      props.onChanged(await statusApi.publish(props.page.id, i.id));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };
  const affected = Object.entries(i.components);
  return (
    <article class={`incident${resolved ? ' resolved' : ''}`} aria-labelledby={titleId}>
      <header class="incident-head">
        <h3 id={titleId}>{i.title}</h3>
        <span class={`badge ${resolved ? 'status-up' : 'status-down'}`}>{incidentStatusLabel(i.status)}</span>
        {!i.published && <span class="badge status-pending">{resolved ? 'Discarded draft' : 'Draft'}</span>}
        {i.automatic && !i.published && <span class="badge status-maintenance">Opened automatically</span>}
        <span class="muted small">
          {formatDateTime(i.created_at)}
          {i.resolved_at ? ` – ${formatDateTime(i.resolved_at)}` : ''}
        </span>
      </header>
      {affected.length > 0 && (
        <p class="incident-affects">
          Affects:{' '}
          {affected.map(([id, s], n) => (
            <span key={id}>
              {n > 0 && ', '}
              {name(id)} ({componentStatusLabel(s).toLowerCase()})
            </span>
          ))}
        </p>
      )}
      <ol class="incident-updates" aria-label={`Updates of ${i.title}`}>
        {[...i.updates].reverse().map((u) => (
          <li key={u.id}>
            <strong>{incidentStatusLabel(u.status)}</strong>{' '}
            <span class="muted small">{formatDateTime(u.created_at)}</span>
            <p>{u.message}</p>
          </li>
        ))}
      </ol>
      {i.postmortem && !props.canWrite && (
        <section class="postmortem" aria-label={`Post-mortem of ${i.title}`}>
          <h4>Post-mortem</h4>
          <p>{i.postmortem}</p>
        </section>
      )}
      <ErrorBox message={error} />
      {props.canWrite && (
        <>
          {!i.published && !resolved && (
            <div class="actions-row">
              <button
                type="button"
                class="button primary"
                disabled={busy}
                onClick={publish}
                aria-label={`Publish ${i.title}`}
              >
                Publish
              </button>
              <button
                type="button"
                class="button danger-outline"
                aria-label={`Discard ${i.title}`}
                onClick={() => setConfirm('discard')}
              >
                Discard
              </button>
            </div>
          )}
          {!resolved && <UpdateForm page={props.page} incident={i} onDone={props.onChanged} />}
          {resolved && i.published && (
            <PostmortemForm page={props.page} incident={i} onDone={props.onChanged} />
          )}
          <div class="actions-row end">
            <button
              type="button"
              class="button small danger-outline"
              aria-label={`Delete incident ${i.title}`}
              onClick={() => setConfirm('delete')}
            >
              Delete
            </button>
          </div>
        </>
      )}
      {confirm === 'discard' && (
        <Confirm
          title={`Discard “${i.title}”?`}
          body="The draft is closed and never shown on the public page."
          action="Discard"
          onClose={() => setConfirm(null)}
          onConfirm={async () => props.onChanged(await statusApi.discard(props.page.id, i.id))}
        />
      )}
      {confirm === 'delete' && (
        <Confirm
          title={`Delete “${i.title}”?`}
          body="The incident and its updates are removed from the page and its history for good."
          action="Delete"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await statusApi.deleteIncident(props.page.id, i.id);
            props.onChanged(null);
          }}
        />
      )}
    </article>
  );
};
