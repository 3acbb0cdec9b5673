import { useState } from 'preact/hooks';
import { ApiError, type Me } from '../../api.js';
import { type AuditFilter, auditApi, exportUrl, NO_FILTER } from '../../api-audit.js';
import { ErrorBox } from '../../kit/error-box.js';
import { type Problems, problemsOf, TextField } from '../../kit/field.js';
import { ListBody, ShowMore, useList } from '../../kit/paging.js';
import { EntryRows, resourceLabel, useExisting } from './audit-entry.js';

/** What the resource type filter suggests (any other type the API records can be typed). */
const RESOURCE_TYPES = [
  'monitor',
  'heartbeat',
  'group',
  'escalation_policy',
  'channel',
  'integration',
  'maintenance_window',
  'status_page',
  'schedule',
  'api_key',
  'user',
  'secret',
  'sso',
  'session',
];

/** The filters: typed here, applied to the list and the export when submitted. */
const Filters = (props: { applied: AuditFilter; problems: Problems; onApply: (f: AuditFilter) => void }) => {
  const p = props.problems;
  const [f, setF] = useState<AuditFilter>(props.applied);
  const set = (k: keyof AuditFilter) => (v: string) => setF((old) => ({ ...old, [k]: v }));
  const changed = JSON.stringify(f) !== JSON.stringify(NO_FILTER);
  return (
    <form
      class="create-form audit-filters"
      aria-label="Filter the audit log"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply(f);
      }}
    >
      <TextField
        id="audit-actor"
        problem={p.actor}
        label="Actor"
        hint="An email, an API key's name, or a user's or key's id"
        maxLength={200}
        autocomplete="off"
        spellcheck={false}
        value={f.actor}
        onValue={set('actor')}
      />
      <TextField
        id="audit-resource-type"
        problem={p.resource_type}
        label="Resource type"
        hint="e.g. monitor, api_key, session"
        maxLength={100}
        autocomplete="off"
        spellcheck={false}
        list="audit-resource-types"
        value={f.resource_type}
        onValue={set('resource_type')}
      />
      <datalist id="audit-resource-types">
        {RESOURCE_TYPES.map((t) => (
          <option key={t} value={t}>
            {resourceLabel(t)}
          </option>
        ))}
      </datalist>
      <TextField
        id="audit-action"
        problem={p.action}
        label="Action"
        hint="e.g. monitor.update, session.sign_in_failed"
        maxLength={100}
        autocomplete="off"
        spellcheck={false}
        value={f.action}
        onValue={set('action')}
      />
      <TextField
        id="audit-from"
        problem={p.from}
        label="From"
        type="datetime-local"
        value={f.from}
        onValue={set('from')}
      />
      <TextField
        id="audit-to"
        problem={p.to}
        label="To"
        type="datetime-local"
        value={f.to}
        onValue={set('to')}
      />
      <div class="audit-filter-actions">
        <button type="submit" class="button primary">
          Apply filters
        </button>
        {changed && (
          <button
            type="button"
            class="button subtle"
            onClick={() => {
              setF(NO_FILTER);
              props.onApply(NO_FILTER);
            }}
          >
            Clear
          </button>
        )}
      </div>
    </form>
  );
};

const filtered = (f: AuditFilter) => JSON.stringify(f) !== JSON.stringify(NO_FILTER);

/**
 * `/settings/audit-log` (admins): who changed what, newest first, filtered by actor, resource type,
 * action and time, a page at a time; each entry opens to its before/after; Export NDJSON downloads
 * every entry the filters keep. Others get the page's refusal and no call of the API.
 */
export const AuditLogPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [problems, setProblems] = useState<Problems>({});
  /** A page of entries; a filter the API refuses is named beside its field (and not as the list's error). */
  const read = async (cursor?: string) => {
    try {
      const page = await auditApi.listAuditLog(filter, cursor);
      setProblems({});
      return page;
    } catch (e) {
      if (e instanceof ApiError && e.details.length) {
        setProblems(problemsOf(e));
        return { data: [], next_cursor: null };
      }
      throw e;
    }
  };
  const { items, next, error, busy, more } = useList(read, {
    deps: [JSON.stringify(filter)],
    enabled: admin,
  });
  const linkOf = useExisting(admin ? items : null);
  if (!admin)
    return (
      <section class="page">
        <h1>Audit log</h1>
        <p class="notice">Only admins of the workspace read its audit log.</p>
      </section>
    );
  const toggle = (id: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (!n.delete(id)) n.add(id);
      return n;
    });
  return (
    <section class="page">
      <div class="page-head">
        <h1>Audit log</h1>
        <a class="button" href={exportUrl(filter)} download="audit-log.ndjson">
          Export NDJSON
        </a>
      </div>
      <p class="lead">
        Every change to configuration and access, and every sign-in: who (through a session, an API key, an
        OAuth app or the CLI), when, from where, and the fields it changed, secrets redacted. Entries cannot
        be edited or deleted; they are kept for the workspace's retention.
      </p>
      <section class="panel" aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title">Filters</h2>
        <Filters applied={filter} problems={problems} onApply={setFilter} />
      </section>
      <section class="panel flush" aria-labelledby="audit-title" aria-busy={items === null && !error}>
        <div class="panel-head">
          <h2 id="audit-title">{filtered(filter) ? 'Matching entries' : 'Entries'}</h2>
          <span class="muted">Newest first</span>
        </div>
        <ErrorBox message={error} inset />
        <ListBody
          items={items}
          empty={
            Object.keys(problems).length
              ? 'Correct the filters above to see entries.'
              : filtered(filter)
                ? 'No entry matches these filters.'
                : 'Nothing recorded yet. Changes to monitors, keys, users and settings, and sign-ins, appear here.'
          }
        >
          {(list) => (
            <table class="keys audit">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Resource</th>
                  <th scope="col">IP</th>
                  <th scope="col">
                    <span class="visually-hidden">Details</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((e) => (
                  <EntryRows
                    key={e.id}
                    entry={e}
                    href={linkOf(e)}
                    open={open.has(e.id)}
                    onToggle={() => toggle(e.id)}
                  />
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
        <ShowMore next={next} onMore={() => void more()} label="Load more" busy={busy} />
      </section>
    </section>
  );
};
