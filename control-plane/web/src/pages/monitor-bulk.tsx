/**
 * Bulk actions on the monitors list: a checkbox per row, "Select all N matching" when the filter
 * matches more than the rows shown, the action bar and its confirmation (monitor-bulk-dialog.tsx),
 * which names the count. A client of `POST /monitors/bulk` only: a selection of rows is sent as `ids`,
 * "all matching" as the list's own `filter` (`{}` spelled out when no filter is set).
 */
import { useEffect, useState } from 'preact/hooks';
import type { MonitorBulkBody } from '../api.js';
import { Notice } from '../kit/error-box.js';
import { type BulkAction, BulkDialog } from './monitor-bulk-dialog.js';

/** The most rows one request may name (the API's bound); beyond it, "all matching" takes the filter. */
const MAX_IDS = 1000;

export interface Selection {
  ids: ReadonlySet<string>;
  /** Every monitor the filter matches, not only the rows picked. */
  all: boolean;
}

const NONE: Selection = { ids: new Set(), all: false };

/** The rows picked on a list; a new filter (`filterKey`) starts afresh. */
export const useSelection = (filterKey: string) => {
  const [selection, setSelection] = useState<Selection>(NONE);
  useEffect(() => setSelection(NONE), [filterKey]);
  const toggle = (id: string, on: boolean) =>
    setSelection((s) => {
      const ids = new Set(s.ids);
      if (on) ids.add(id);
      else ids.delete(id);
      return { ids, all: false };
    });
  const toggleShown = (shown: string[], on: boolean) =>
    setSelection((s) => {
      const ids = new Set(s.ids);
      for (const id of shown) on ? ids.add(id) : ids.delete(id);
      return { ids, all: false };
    });
  return {
    selection,
    toggle,
    toggleShown,
    selectAll: () => setSelection((s) => ({ ...s, all: true })),
    clear: () => setSelection(NONE),
  };
};

export type SelectionState = ReturnType<typeof useSelection>;

/** The row's checkbox: "Select <monitor name>". */
export const SelectCell = (props: { state: SelectionState; id: string; name: string }) => {
  const { selection, toggle } = props.state;
  return (
    <td class="select">
      <input
        type="checkbox"
        aria-label={`Select ${props.name}`}
        checked={selection.all || selection.ids.has(props.id)}
        onChange={(e) => toggle(props.id, e.currentTarget.checked)}
      />
    </td>
  );
};

/** The header cell above the row checkboxes (the checkbox for every row shown is in the bar). */
export const SelectHeader = () => (
  <th scope="col" class="select">
    <span class="visually-hidden">Selected</span>
  </th>
);

/** The bar's checkbox: every row shown (its state mixed while only some are). */
const SelectShown = (props: { state: SelectionState; shown: string[] }) => {
  const { selection, toggleShown } = props.state;
  const picked = props.shown.filter((id) => selection.all || selection.ids.has(id)).length;
  return (
    <input
      type="checkbox"
      aria-label="Select all shown"
      checked={props.shown.length > 0 && picked === props.shown.length}
      ref={(el) => {
        if (el) el.indeterminate = picked > 0 && picked < props.shown.length;
      }}
      onChange={(e) => toggleShown(props.shown, e.currentTarget.checked)}
    />
  );
};

const ACTIONS: { action: BulkAction; label: string; danger?: boolean }[] = [
  { action: 'pause', label: 'Pause' },
  { action: 'resume', label: 'Resume' },
  { action: 'set_policy', label: 'Set policy' },
  { action: 'set_group', label: 'Set group' },
  { action: 'add_tags', label: 'Add tags' },
  { action: 'remove_tags', label: 'Remove tags' },
  { action: 'delete', label: 'Delete', danger: true },
];

/**
 * The bar above a list with picked rows: how many, "Select all N matching" (when `matching`, the
 * filter's count, is more than the rows shown), the actions, and after one its outcome.
 */
export const BulkBar = (props: {
  state: SelectionState;
  shown: string[];
  /** How many monitors the filter matches (null: not known, "all matching" is not offered). */
  matching: number | null;
  /** The list's filters as its query takes them (unset ones undefined). */
  filter: Record<string, string | undefined>;
  onDone: () => void;
}) => {
  const { selection, selectAll, clear } = props.state;
  const [asking, setAsking] = useState<BulkAction | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const count = selection.all ? (props.matching ?? 0) : selection.ids.size;
  const allShown =
    props.shown.length > 0 && props.shown.every((id) => selection.all || selection.ids.has(id));
  const offerAll =
    !selection.all && allShown && props.matching !== null && props.matching > props.shown.length;

  const body = (): Omit<MonitorBulkBody, 'action'> =>
    selection.all
      ? {
          filter: Object.fromEntries(
            Object.entries(props.filter).filter(([, v]) => v !== undefined && v !== ''),
          ),
        }
      : { ids: [...selection.ids] };

  if (props.shown.length === 0) return <Notice notice={notice} inset />;
  return (
    <section class={count > 0 ? 'bulk-bar picked' : 'bulk-bar'} aria-label="Selected monitors">
      <Notice notice={notice} />
      <p class="bulk-count" aria-live="polite">
        <SelectShown state={props.state} shown={props.shown} />{' '}
        {count === 0
          ? 'Select monitors to pause, resume, delete or change them together.'
          : selection.all
            ? `All ${count.toLocaleString('en')} matching monitors selected.`
            : `${count.toLocaleString('en')} selected.`}{' '}
        {offerAll && (
          <button type="button" class="link-button" onClick={selectAll}>
            Select all {props.matching!.toLocaleString('en')} matching
          </button>
        )}{' '}
        {count > 0 && (
          <button type="button" class="link-button" onClick={clear}>
            Clear selection
          </button>
        )}
      </p>
      {count === 0 ? null : !selection.all && count > MAX_IDS ? (
        <p class="muted small">
          Pick at most {MAX_IDS.toLocaleString('en')} rows, or select all matching the filter.
        </p>
      ) : (
        <div class="bulk-actions">
          {ACTIONS.map((a) => (
            <button
              key={a.action}
              type="button"
              class={a.danger ? 'button small danger-outline' : 'button small'}
              onClick={() => {
                setNotice(null);
                setAsking(a.action);
              }}
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
      {asking && (
        <BulkDialog
          action={asking}
          count={count}
          body={body()}
          onClose={() => setAsking(null)}
          onDone={(text) => {
            setNotice({ ok: true, text });
            clear();
            props.onDone();
          }}
        />
      )}
    </section>
  );
};
