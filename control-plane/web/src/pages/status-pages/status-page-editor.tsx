import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import {
  type ComponentBody,
  type ComponentStatus,
  type StatusPage,
  type StatusPageBody,
  statusApi,
  type Visibility,
} from '../../api-status.js';
import { ErrorBox, Loading } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { describedBy, Field, FieldNotes, type Problems, problemsOf, TextField } from '../../kit/field.js';
import { RecordPicker } from '../../kit/record-picker.js';
import { followLink, navigate } from '../../router.js';
import { CustomDomainProof } from './custom-domain-proof.js';
import { ComponentStatusOptions } from './status-words.js';

type Source = 'monitor' | 'heartbeat' | 'manual';
const AUTO_DRAFT_HINT = 'Drafts are shown to nobody until someone publishes them.';

/** One component as the editor holds it: `key` names it in the page while it moves. */
interface ComponentDraft {
  key: number;
  id?: string;
  name: string;
  description: string;
  group: string;
  source: Source;
  monitor_id: string;
  heartbeat_id: string;
  status: ComponentStatus;
  /** A stored component set by hand keeps its stored status unless the author changes it. */
  statusChanged: boolean;
}

let nextKey = 0;
const blankComponent = (): ComponentDraft => ({
  key: nextKey++,
  name: '',
  description: '',
  group: '',
  source: 'monitor',
  monitor_id: '',
  heartbeat_id: '',
  status: 'operational',
  statusChanged: false,
});

const fromStored = (c: StatusPage['components'][number]): ComponentDraft => ({
  key: nextKey++,
  id: c.id,
  name: c.name,
  description: c.description ?? '',
  group: c.group ?? '',
  source: c.monitor_id ? 'monitor' : c.heartbeat_id ? 'heartbeat' : 'manual',
  monitor_id: c.monitor_id ?? '',
  heartbeat_id: c.heartbeat_id ?? '',
  // Only a component set by hand sends its status; a linked one's may be `unknown` (no data yet).
  status: c.status === 'unknown' ? 'operational' : c.status,
  statusChanged: false,
});

const componentBody = (c: ComponentDraft): ComponentBody => ({
  ...(c.id ? { id: c.id } : {}),
  name: c.name,
  description: c.description.trim() || null,
  group: c.group.trim() || null,
  // None chosen goes as '' so that the API names the field (null would make it a component set by hand).
  ...(c.source === 'monitor' ? { monitor_id: c.monitor_id } : {}),
  ...(c.source === 'heartbeat' ? { heartbeat_id: c.heartbeat_id } : {}),
  // The API's status of a stored component is the live one (an open incident may make it worse):
  // sent only when the author chose one, so an incident's statement never becomes the stored status.
  ...(c.source === 'manual' && (!c.id || c.statusChanged) ? { status: c.status } : {}),
});

/** Problems the API named inside component i (`components[1].name`, …) by field, and the component's own. */
const componentProblems = (p: Problems, i: number) => {
  const at = `components[${i}]`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) if (v && k.startsWith(`${at}.`)) out[k.slice(at.length + 1)] = v;
  if (p[at]) out.self = p[at]!;
  return out;
};

/** `/status-pages/new` and `/status-pages/{id}/edit`: the page's settings and its ordered components. */
export const StatusPageEditor = (props: { me: Me; id?: string }) => {
  const editing = props.id !== undefined;
  const [existing, setExisting] = useState<StatusPage | null>(null);
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  /** Until the author types a slug, it follows the name. */
  const [slugTyped, setSlugTyped] = useState(false);
  const [domain, setDomain] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('public');
  const [password, setPassword] = useState('');
  const [accent, setAccent] = useState('');
  const [autoDraft, setAutoDraft] = useState(false);
  const [components, setComponents] = useState<ComponentDraft[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!props.id) return;
    statusApi.get(props.id).then(
      (p) => {
        setExisting(p);
        setName(p.name);
        setSlug(p.slug);
        setSlugTyped(true);
        setDomain(p.custom_domain ?? '');
        setVisibility(p.visibility);
        setAccent(p.accent_color ?? '');
        setAutoDraft(p.auto_draft_incidents);
        setComponents(p.components.map(fromStored));
      },
      (e: Error) => setLoadError(e.message),
    );
  }, [props.id]);

  const title = existing ? `Edit ${existing.name}` : 'New status page';
  if (props.me.user.role === 'viewer')
    return (
      <section class="page">
        <h1>{editing ? 'Edit status page' : 'New status page'}</h1>
        <p class="lead">Viewers read status pages; ask a member or an admin to create or change one.</p>
      </section>
    );
  if (editing && !existing)
    return (
      <section class="page">
        <h1>Edit status page</h1>
        <Loading error={loadError} />
      </section>
    );

  /** Problems the API named by a component's place in the list no longer fit once the list changes. */
  const forgetComponentProblems = () =>
    setProblems((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith('components['))));
  const edit = (i: number, change: Partial<ComponentDraft>) =>
    setComponents((list) => list.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const move = (i: number, by: -1 | 1) => {
    forgetComponentProblems();
    setComponents((list) => {
      const next = [...list];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });
    // Keep the keyboard where it was: on the same button of the component that moved (or its other one at an end).
    const to = i + by;
    requestAnimationFrame(() => {
      const wanted = document.getElementById(
        `spc-${to}-${by < 0 ? 'up' : 'down'}`,
      ) as HTMLButtonElement | null;
      const other = document.getElementById(
        `spc-${to}-${by < 0 ? 'down' : 'up'}`,
      ) as HTMLButtonElement | null;
      (wanted && !wanted.disabled ? wanted : other)?.focus();
    });
  };
  const add = () => {
    setComponents((list) => [...list, blankComponent()]);
    const at = components.length;
    requestAnimationFrame(() => document.getElementById(`spc-${at}-name`)?.focus());
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: StatusPageBody = {
        name,
        slug,
        custom_domain: domain.trim() || null,
        visibility,
        ...(visibility === 'password' && password ? { password } : {}),
        accent_color: accent.trim() || null,
        auto_draft_incidents: autoDraft,
        components: components.map(componentBody),
      };
      const saved = existing ? await statusApi.update(existing.id, body) : await statusApi.create(body);
      navigate(`/status-pages/${saved.id}`);
    } catch (err) {
      setProblems(problemsOf(err));
      setBusy(false);
    }
  };

  const keepsPassword = existing?.visibility === 'password';
  return (
    <section class="page">
      {existing && (
        <p class="crumb">
          <a href={`/status-pages/${existing.id}`} onClick={followLink}>
            ← {existing.name}
          </a>
        </p>
      )}
      <h1>{title}</h1>
      <p class="lead">
        What your customers read: the page’s address, who may open it, and the components it shows, in this
        order.
      </p>
      <form class="panel monitor-form status-page-form" onSubmit={save} noValidate aria-label={title}>
        <ErrorSummary problems={problems} />
        <fieldset>
          <legend>Page</legend>
          <div class="grid">
            <TextField
              id="sp-name"
              label="Name"
              problem={problems.name}
              maxLength={200}
              placeholder="Acme status"
              value={name}
              onValue={(v) => {
                setName(v);
                if (!slugTyped)
                  setSlug(
                    v
                      .toLowerCase()
                      .replace(/[^a-z0-9]+/g, '-')
                      .replace(/^-+|-+$/g, '')
                      .slice(0, 64),
                  );
              }}
            />
            <TextField
              id="sp-slug"
              label="Slug"
              problem={problems.slug}
              hint={`The page is at /status/${slug || '…'}`}
              maxLength={64}
              placeholder="acme"
              value={slug}
              onValue={(v) => {
                setSlug(v);
                setSlugTyped(true);
              }}
            />
            <TextField
              id="sp-custom_domain"
              label="Custom domain"
              problem={problems.custom_domain}
              hint="Optional, e.g. status.example.com: served there once its DNS proves it is yours (the record to create shows after Save)."
              placeholder="status.example.com"
              value={domain}
              onValue={setDomain}
            />
            <Field id="sp-visibility" label="Visibility" problem={problems.visibility}>
              {(a) => (
                <select
                  {...a}
                  value={visibility}
                  onChange={(e) => setVisibility(e.currentTarget.value as Visibility)}
                >
                  <option value="public">Public: anyone with the address</option>
                  <option value="password">Protected by a password</option>
                </select>
              )}
            </Field>
            {visibility === 'password' && (
              <TextField
                id="sp-password"
                label="Password"
                type="password"
                autoComplete="new-password"
                problem={problems.password}
                hint={
                  keepsPassword
                    ? 'Leave empty to keep the current one; a new one signs every reader out.'
                    : 'At least 8 characters; readers type it once per browser.'
                }
                value={password}
                onValue={setPassword}
              />
            )}
            <Field
              id="sp-accent_color"
              label="Accent colour"
              problem={problems.accent_color}
              hint="Optional, as #rrggbb."
            >
              {(a) => (
                <div class="colour-input">
                  <input
                    {...a}
                    type="text"
                    placeholder="#6d28d9"
                    maxLength={7}
                    value={accent}
                    onInput={(e) => setAccent(e.currentTarget.value)}
                  />
                  <input
                    type="color"
                    aria-label="Pick a colour"
                    value={/^#[0-9a-fA-F]{6}$/.test(accent) ? accent : '#1a7f5a'}
                    onInput={(e) => setAccent(e.currentTarget.value)}
                  />
                </div>
              )}
            </Field>
          </div>
          <div class="field check">
            <label>
              <input
                type="checkbox"
                checked={autoDraft}
                {...describedBy('sp-auto_draft_incidents', problems.auto_draft_incidents, AUTO_DRAFT_HINT)}
                onChange={(e) => setAutoDraft(e.currentTarget.checked)}
              />{' '}
              Open a draft incident when a linked monitor goes down
            </label>
            <FieldNotes
              id="sp-auto_draft_incidents"
              problem={problems.auto_draft_incidents}
              hint={AUTO_DRAFT_HINT}
            />
          </div>
        </fieldset>

        {existing?.custom_domain && existing.custom_domain === domain.trim().toLowerCase() && (
          <CustomDomainProof page={existing} onChecked={setExisting} />
        )}

        <fieldset>
          <legend>Components</legend>
          <ErrorBox message={problems.components} />
          {components.length === 0 && (
            <p class="muted">No components yet: add the parts of your service your customers know.</p>
          )}
          <ol class="steps">
            {components.map((c, i) => {
              const p = componentProblems(problems, i);
              const id = `spc-${i}`;
              const label = `Component ${i + 1}`;
              const who = c.name.trim() || label;
              return (
                <li key={c.key}>
                  <fieldset class="step" aria-describedby={p.self || p.id ? `${id}-problem` : undefined}>
                    <legend>{label}</legend>
                    <div class="grid">
                      <TextField
                        id={`${id}-name`}
                        label="Name"
                        problem={p.name}
                        maxLength={200}
                        placeholder="API"
                        value={c.name}
                        onValue={(v) => edit(i, { name: v })}
                      />
                      <TextField
                        id={`${id}-group`}
                        label="Group"
                        problem={p.group}
                        hint="Optional: components of a group show together."
                        maxLength={100}
                        value={c.group}
                        onValue={(v) => edit(i, { group: v })}
                      />
                      <Field id={`${id}-source`} label="Shows">
                        {(a) => (
                          <select
                            {...a}
                            value={c.source}
                            onChange={(e) => edit(i, { source: e.currentTarget.value as Source })}
                          >
                            <option value="monitor">A monitor’s status</option>
                            <option value="heartbeat">A heartbeat’s status</option>
                            <option value="manual">A status set by hand</option>
                          </select>
                        )}
                      </Field>
                      {c.source === 'monitor' && (
                        <RecordPicker
                          id={`${id}-monitor`}
                          kind="monitor"
                          label="Monitor"
                          value={c.monitor_id}
                          problem={p.monitor_id}
                          onChange={(v) => edit(i, { monitor_id: v })}
                        />
                      )}
                      {c.source === 'heartbeat' && (
                        <RecordPicker
                          id={`${id}-heartbeat`}
                          kind="heartbeat"
                          label="Heartbeat"
                          value={c.heartbeat_id}
                          problem={p.heartbeat_id}
                          onChange={(v) => edit(i, { heartbeat_id: v })}
                        />
                      )}
                      {c.source === 'manual' && (
                        <Field id={`${id}-status`} label="Status" problem={p.status}>
                          {(a) => (
                            <select
                              {...a}
                              value={c.status}
                              onChange={(e) =>
                                edit(i, {
                                  status: e.currentTarget.value as ComponentStatus,
                                  statusChanged: true,
                                })
                              }
                            >
                              <ComponentStatusOptions />
                            </select>
                          )}
                        </Field>
                      )}
                      <TextField
                        id={`${id}-description`}
                        label="Description"
                        problem={p.description}
                        hint="Optional: shown under its name."
                        class="wide"
                        maxLength={1000}
                        value={c.description}
                        onValue={(v) => edit(i, { description: v })}
                      />
                    </div>
                    {(p.self || p.id) && (
                      <p class="field-problem" id={`${id}-problem`}>
                        {p.self ?? p.id}
                      </p>
                    )}
                    <div class="step-actions">
                      <button
                        type="button"
                        id={`${id}-up`}
                        class="button small"
                        disabled={i === 0}
                        aria-label={`Move ${who} up`}
                        onClick={() => move(i, -1)}
                      >
                        ↑ Up
                      </button>
                      <button
                        type="button"
                        id={`${id}-down`}
                        class="button small"
                        disabled={i === components.length - 1}
                        aria-label={`Move ${who} down`}
                        onClick={() => move(i, 1)}
                      >
                        ↓ Down
                      </button>
                      <button
                        type="button"
                        class="button small danger-outline"
                        aria-label={`Remove ${who}`}
                        onClick={() => {
                          forgetComponentProblems();
                          setComponents((list) => list.filter((_, j) => j !== i));
                        }}
                      >
                        Remove
                      </button>
                    </div>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <button type="button" class="button" onClick={add}>
            Add component
          </button>
        </fieldset>

        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy}>
            Save
          </button>
          <a
            class="button"
            href={existing ? `/status-pages/${existing.id}` : '/status-pages'}
            onClick={followLink}
          >
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
};
