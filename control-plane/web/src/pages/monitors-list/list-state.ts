import { useEffect, useState } from 'preact/hooks';
import type { MonitorFilter, MonitorSort, MonitorStatus } from '../../api.js';
import { navigate } from '../../router.js';

/**
 * The monitors page's view (sort, search, filters) lives in its URL: `/monitors?sort=name&status=down&q=api`,
 * so a view can be shared and survives a reload. Defaults are left out (`/monitors` is by status, all).
 * Changes replace the history entry rather than push one per keystroke; Back still leaves the page.
 */
export type ListState = Required<Omit<MonitorFilter, 'sort'>> & {
  sort: MonitorSort;
  /** `groups` (the default, when the workspace has groups): a section per group; `list`: one list. */
  layout: 'groups' | 'list';
};

export const SORTS: { value: MonitorSort; label: string }[] = [
  { value: 'status', label: 'Status' },
  { value: 'name', label: 'Name' },
  { value: 'last_change', label: 'Last change' },
  { value: 'response_time', label: 'Response time' },
];

const STATUS_VALUES = ['up', 'down', 'paused', 'pending', 'maintenance'];
const KEYS = ['status', 'q', 'tag', 'group_id', 'monitor_type', 'region'] as const;

/** The view a query string names (unknown values fall back to the defaults). */
export const stateOf = (search: string): ListState => {
  const p = new URLSearchParams(search);
  const sort = p.get('sort');
  const status = p.get('status') ?? '';
  return {
    sort: SORTS.some((s) => s.value === sort) ? (sort as MonitorSort) : 'status',
    status: STATUS_VALUES.includes(status) ? (status as MonitorStatus) : '',
    search: p.get('q') ?? '',
    tag: p.get('tag') ?? '',
    group_id: p.get('group_id') ?? '',
    monitor_type: p.get('monitor_type') ?? '',
    region: p.get('region') ?? '',
    layout: p.get('layout') === 'list' ? 'list' : 'groups',
  };
};

/** The query string of a view, defaults left out ('' for the default view). */
export const queryOf = (s: ListState): string => {
  const p = new URLSearchParams();
  if (s.sort !== 'status') p.set('sort', s.sort);
  if (s.layout === 'list') p.set('layout', 'list');
  for (const k of KEYS) {
    const v = k === 'q' ? s.search : s[k];
    if (v) p.set(k, v);
  }
  const q = p.toString();
  return q ? `?${q}` : '';
};

/** The view in the URL, and a setter that writes the URL (Back and Forward move it too). */
export const useListState = (): [ListState, (change: Partial<ListState>) => void] => {
  const [state, setState] = useState(() => stateOf(location.search));
  useEffect(() => {
    const update = () => setState(stateOf(location.search));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  const change = (c: Partial<ListState>) => {
    const next = { ...state, ...c };
    setState(next);
    navigate(`${location.pathname}${queryOf(next)}`, { replace: true });
  };
  return [state, change];
};
