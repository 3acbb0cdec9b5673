/**
 * Choosing one monitor, heartbeat, group or schedule out of however many the workspace has: a search box that asks the
 * server (`q`, once typing pauses) and a list of what it found, a page at a time ("Show more"). The one
 * picker of monitors and heartbeats in the app; `RecordName` shows a chosen one's name anywhere.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { routingApi } from '../api-routing.js';
import { schedulesApi } from '../api-schedules.js';
import { FieldNotes } from './field.js';
import { useList } from './paging.js';

export type RecordKind = 'monitor' | 'heartbeat' | 'group' | 'schedule';

interface Item {
  id: string;
  display_name: string;
}
interface Page {
  data: Item[];
  next_cursor: string | null;
}

/** How long typing must pause before the server is asked. */
const DEBOUNCE_MS = 250;

const SOURCES: Record<
  RecordKind,
  {
    find: (q: string, cursor?: string) => Promise<Page>;
    get: (id: string) => Promise<Item>;
    searchBy: string;
  }
> = {
  monitor: {
    find: (q, cursor) => api.listMonitors({ status: '', search: q }, cursor),
    get: (id) => api.getMonitor(id),
    searchBy: 'Name or address',
  },
  heartbeat: {
    find: (q, cursor) => routingApi.listHeartbeats(cursor, q),
    get: (id) => routingApi.getHeartbeat(id),
    searchBy: 'Name or slug',
  },
  group: {
    find: async (q, cursor) => {
      const p = await routingApi.listGroups(cursor, q);
      return { ...p, data: p.data.map((g) => ({ id: g.id, display_name: g.name })) };
    },
    get: async (id) => {
      const g = await routingApi.getGroup(id);
      return { id: g.id, display_name: g.name };
    },
    searchBy: 'Name',
  },
  schedule: {
    find: async (q, cursor) => {
      const p = await schedulesApi.listSchedules(cursor, q);
      return { ...p, data: p.data.map((s) => ({ id: s.id, display_name: s.name })) };
    },
    get: async (id) => {
      const s = await schedulesApi.getSchedule(id);
      return { id: s.id, display_name: s.name };
    },
    searchBy: 'Name',
  },
};

/** Names already read, by kind and id; bounded (the oldest goes first). */
const NAMES_MAX = 500;
const names = new Map<string, string>();
const remember = (kind: RecordKind, items: Item[]) => {
  for (const i of items) {
    names.delete(`${kind}:${i.id}`);
    names.set(`${kind}:${i.id}`, i.display_name);
  }
  while (names.size > NAMES_MAX) names.delete(names.keys().next().value!);
};

/** A monitor's or heartbeat's name, read by id when not already known ('' while unknown or gone). */
export const useRecordName = (kind: RecordKind, id: string | null | undefined) => {
  const key = `${kind}:${id}`;
  const [name, setName] = useState(id ? (names.get(key) ?? '') : '');
  useEffect(() => {
    if (!id) return setName('');
    const known = names.get(key);
    if (known !== undefined) return setName(known);
    let live = true;
    SOURCES[kind].get(id).then(
      (r) => {
        remember(kind, [r]);
        if (live) setName(r.display_name);
      },
      () => live && setName(''),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return name;
};

/** The name of a monitor or heartbeat, for text on a page. */
export const RecordName = (props: { kind: RecordKind; id: string | null | undefined; missing?: string }) => {
  const name = useRecordName(props.kind, props.id);
  return <>{name || props.missing || '…'}</>;
};

/**
 * A labelled choice of one monitor or heartbeat (`label`: "Monitor"); the control named by the label
 * is the list (a select), so `getByLabel(label).selectOption(...)` works as for any select. The search
 * box before it is named "Search" (like the monitor list's), its placeholder saying what it matches.
 */
export const RecordPicker = (props: {
  id: string;
  kind: RecordKind;
  label: string;
  value: string;
  problem?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
  /** The first option, for no choice (default "Choose…"; a group picker says "No group"). */
  none?: string;
  onChange: (id: string) => void;
}) => {
  const source = SOURCES[props.kind];
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const chosenName = useRecordName(props.kind, props.value);

  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [typed]);

  const { items, next, error, busy, more } = useList(
    (cursor) =>
      source.find(q, cursor).then((page) => {
        remember(props.kind, page.data);
        return page;
      }),
    { deps: [q], enabled: !props.disabled },
  );

  const what = props.label.toLowerCase();
  const shown = items ?? [];
  const chosenOutside = props.value && !shown.some((i) => i.id === props.value);
  const status =
    error ??
    (items === null
      ? 'Loading…'
      : typed.trim() !== q
        ? 'Searching…'
        : shown.length === 0
          ? q
            ? `No ${what} matches “${q}”.`
            : `No ${what}s yet.`
          : `${shown.length} ${q ? `matching “${q}”` : 'shown'}${next ? ', more below: search, or show more.' : '.'}`);
  const problem = props.problem && !props.value ? `Choose a ${what}.` : props.problem;
  const notes = [
    problem ? `${props.id}-problem` : '',
    props.disabled ? '' : `${props.id}-found`,
    props.hint ? `${props.id}-hint` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div class="field record-picker">
      <label for={props.id}>{props.label}</label>
      {!props.disabled && (
        <input
          type="search"
          class="record-search"
          aria-label="Search"
          aria-controls={props.id}
          placeholder={source.searchBy}
          value={typed}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
      )}
      <select
        id={props.id}
        aria-invalid={problem ? true : undefined}
        aria-describedby={notes || undefined}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <option value="">{props.none ?? 'Choose…'}</option>
        {chosenOutside && <option value={props.value}>{chosenName || `The current ${what}`}</option>}
        {shown.map((i) => (
          <option key={i.id} value={i.id}>
            {i.display_name}
          </option>
        ))}
      </select>
      {!props.disabled && (
        <div class="record-found">
          <span id={`${props.id}-found`} class="hint tight" role="status">
            {status}
          </span>
          {next && (
            <button type="button" class="button small" disabled={busy} onClick={more}>
              Show more
            </button>
          )}
        </div>
      )}
      <FieldNotes id={props.id} problem={problem} hint={props.hint} />
    </div>
  );
};
