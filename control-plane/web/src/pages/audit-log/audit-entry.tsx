/** One entry of the audit log as a table row, and the before/after of its changes as a field table. */
import { useEffect, useState } from 'preact/hooks';
import type { AuditActorType, AuditEntry } from '../../api-audit.js';
import { formatDateTimeSeconds, fromNow } from '../../format.js';
import { followLink } from '../../router.js';

/** How the actor reached Lookout, as the badge before their name says it. */
export const ACTOR_TYPES: Record<AuditActorType, string> = {
  user: 'Session',
  api_key: 'API key',
  oauth_client: 'OAuth app',
  cli: 'CLI',
  system: 'Lookout',
};

/** The resource types a page shows one record of, and where (its id in place of :id). */
const PAGE_OF: Record<string, string> = {
  monitor: '/monitors/:id',
  heartbeat: '/heartbeats/:id',
  schedule: '/schedules/:id',
  status_page: '/status-pages/:id',
  alert: '/alerts/:id',
};
/** The API path that answers 404 once such a record is gone (the alert's by its UUID). */
const API_OF: Record<string, string> = {
  monitor: '/monitors/',
  heartbeat: '/heartbeats/',
  schedule: '/schedules/',
  status_page: '/status-pages/',
  alert: '/alerts/',
};

/** Names whose letters a reader expects in capitals. */
const LABELS: Record<string, string> = { api_key: 'API key', sso: 'SSO', oauth_client: 'OAuth app' };

/** "monitor" → "Monitor", "status_page" → "Status page", "api_key" → "API key". */
export const resourceLabel = (t: string) => {
  if (LABELS[t]) return LABELS[t];
  const words = t.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Whether records still exist, by `type:id`, asked once each (bounded: the oldest answers are dropped). */
const known = new Map<string, boolean>();
const KNOWN_MAX = 1000;
const keyOf = (e: AuditEntry) =>
  e.resource_id && PAGE_OF[e.resource_type] ? `${e.resource_type}:${e.resource_id}` : null;

const exists = async (key: string) => {
  const [type, id] = key.split(':') as [string, string];
  const r = await fetch(`/api/v1${API_OF[type]}${encodeURIComponent(id)}`, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (r.status === 404) return false;
  if (!r.ok) throw new Error(String(r.status));
  return true;
};

/**
 * Which of the entries' records still exist (so their resource links to its page): each record asked
 * once, a few at a time, while the list shows. A record not yet known shows as text until its answer.
 */
export const useExisting = (entries: readonly AuditEntry[] | null) => {
  const [, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    const ask = [...new Set((entries ?? []).map(keyOf))].filter((k): k is string => !!k && !known.has(k));
    void (async () => {
      for (let i = 0; i < ask.length && live; i += 6) {
        await Promise.all(
          ask.slice(i, i + 6).map((k) =>
            exists(k).then(
              (yes) => {
                if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value as string);
                known.set(k, yes);
              },
              () => undefined,
            ),
          ),
        );
        if (live) setVersion((v) => v + 1);
      }
    })();
    return () => {
      live = false;
    };
  }, [entries]);
  return (e: AuditEntry) => {
    const k = keyOf(e);
    return k && known.get(k)
      ? PAGE_OF[e.resource_type]!.replace(':id', encodeURIComponent(e.resource_id!))
      : null;
  };
};

const REDACTED = '[redacted]';

/** A value of a change as a reader takes it in: none, [redacted], a word, a list of words, or compact JSON. */
const Value = (props: { v: unknown }) => {
  const { v } = props;
  if (v === null || v === undefined) return <span class="muted">none</span>;
  if (v === REDACTED) return <span class="redacted">[redacted]</span>;
  if (typeof v === 'string') return <span>{v === '' ? '""' : v}</span>;
  if (Array.isArray(v) && v.every((i) => typeof i === 'string'))
    return v.length ? <span>{v.join(', ')}</span> : <span class="muted">none</span>;
  return <code>{JSON.stringify(v)}</code>;
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The rows of the before/after table: a field whose values are objects (a monitor's `auth`) opens into
 * its changed parts (`auth.password`), two levels deep at most. Parts equal on both sides are left
 * out, except secrets: "[redacted]" on both sides may hide a change, so it is shown.
 */
export const diffRows = (changes: Record<string, unknown[]> | null) => {
  const rows: { field: string; before: unknown; after: unknown }[] = [];
  const walk = (field: string, before: unknown, after: unknown, depth: number) => {
    if (depth < 2 && (isRecord(before) || isRecord(after)) && !same(before, after)) {
      const b = isRecord(before) ? before : {};
      const a = isRecord(after) ? after : {};
      const found = rows.length;
      for (const k of new Set([...Object.keys(b), ...Object.keys(a)]))
        if (!same(b[k], a[k]) || (b[k] === REDACTED && a[k] === REDACTED))
          walk(`${field}.${k}`, b[k], a[k], depth + 1);
      if (rows.length > found) return;
    }
    rows.push({ field, before, after });
  };
  for (const [field, pair] of Object.entries(changes ?? {})) walk(field, pair[0], pair[1], 0);
  return rows;
};

/** The before/after of each changed field, one row each. */
export const ChangesTable = (props: { entry: AuditEntry }) => {
  const rows = diffRows(props.entry.changes);
  if (rows.length === 0)
    return (
      <p class="muted small audit-nochange">No field changed: this action records no before and after.</p>
    );
  return (
    <table class="audit-diff" aria-label={`Changes of ${props.entry.action}`}>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.field}>
            <th scope="row">
              <code>{r.field}</code>
            </th>
            <td data-label="Before">
              <Value v={r.before} />
            </td>
            <td data-label="After">
              <Value v={r.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

/** The actor's badge (how they came in) and name: "API key ci-deploy". */
const Who = (props: { entry: AuditEntry }) => {
  const a = props.entry.actor;
  return (
    <span>
      <span class={`badge actor-${a.type}`}>{ACTOR_TYPES[a.type] ?? a.type}</span> <span>{a.name}</span>
    </span>
  );
};

/** One entry: when, who, action, resource (linked while it exists), IP; its changes open below it. */
export const EntryRows = (props: {
  entry: AuditEntry;
  href: string | null;
  open: boolean;
  onToggle: () => void;
}) => {
  const e = props.entry;
  const detailsId = `audit-${e.id}-details`;
  return (
    <>
      <tr class={props.open ? 'audit-entry open' : 'audit-entry'}>
        <td data-label="When">
          <time dateTime={e.at} title={e.at}>
            {formatDateTimeSeconds(e.at)}
          </time>
          <span class="muted block small">{fromNow(e.at)}</span>
        </td>
        <td data-label="Who" class="prose">
          <Who entry={e} />
        </td>
        <th scope="row" class="audit-action">
          <code>{e.action}</code>
        </th>
        <td data-label="Resource" class="prose">
          {resourceLabel(e.resource_type)}
          {e.resource_id &&
            (props.href ? (
              <a class="block small" href={props.href} onClick={followLink}>
                {e.resource_id}
              </a>
            ) : (
              <span class="muted block small">{e.resource_id}</span>
            ))}
        </td>
        <td data-label="IP">{e.ip ? <code>{e.ip}</code> : <span class="muted">none</span>}</td>
        <td class="actions">
          <button
            type="button"
            class="button small"
            aria-expanded={props.open}
            aria-controls={detailsId}
            aria-label={`${props.open ? 'Hide' : 'Show'} details of ${e.action} at ${formatDateTimeSeconds(e.at)}`}
            onClick={props.onToggle}
          >
            {props.open ? 'Hide' : 'Details'}
          </button>
        </td>
      </tr>
      {props.open && (
        <tr class="audit-details" id={detailsId}>
          <td colSpan={6}>
            <ChangesTable entry={e} />
            {e.user_agent && (
              <p class="muted small audit-agent">
                User agent: <span>{e.user_agent}</span>
              </p>
            )}
          </td>
        </tr>
      )}
    </>
  );
};
