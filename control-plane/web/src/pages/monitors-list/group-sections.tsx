import { useEffect, useState } from 'preact/hooks';
import { api, type Group, type MonitorCounts, type MonitorStatus } from '../../api.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ShowMore, useList } from '../../kit/paging.js';
import { MonitorRows, StatusBadge } from '../monitors.js';
import type { ListState } from './list-state.js';

/** The statuses in the list's order: the first one a section has is its worst. */
const WORST_FIRST: MonitorStatus[] = ['down', 'pending', 'maintenance', 'paused', 'up'];
const WORDS: Record<MonitorStatus, string> = {
  down: 'down',
  pending: 'pending',
  maintenance: 'in maintenance',
  paused: 'paused',
  up: 'up',
};

/** "2 down · 1 pending · 14 up": the section's counts, worst first, none left out but zeros. */
const countsText = (c: MonitorCounts) =>
  WORST_FIRST.filter((s) => c[s] > 0)
    .map((s) => `${c[s].toLocaleString('en')} ${WORDS[s]}`)
    .join(' · ') || 'no monitors';

/**
 * One group's section (or the ungrouped monitors'): a header with the group's worst status and its
 * counts for the page's filters, a button that opens and closes it, and its own members a page at a
 * time in the page's sort. Open at first when something in it needs a look (down or pending), closed
 * otherwise; a closed section reads nothing but its counts.
 */
const GroupSection = (props: { group: Group | null; view: ListState }) => {
  const groupId = props.group?.id ?? 'none';
  const name = props.group?.name ?? 'Ungrouped';
  const filter = { ...props.view, group_id: groupId };
  const key = JSON.stringify(filter);
  const [counts, setCounts] = useState<MonitorCounts | null>(null);
  const [open, setOpen] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    api.countMonitors(filter).then(
      (c) => {
        if (!live) return;
        setCounts(c);
        setOpen((o) => o ?? (c.down > 0 || c.pending > 0));
      },
      () => live && setCounts(null),
    );
    return () => {
      live = false;
    };
  }, [key]);
  const { items, next, error, busy, more } = useList((cursor) => api.listMonitors(filter, cursor), {
    deps: [key],
    enabled: open === true,
    poll: 'keep-more',
  });
  const worst = counts ? WORST_FIRST.find((s) => counts[s] > 0) : undefined;
  const id = `group-${groupId}`;
  // Under a filter, a section with nothing that matches is left out; without one, an empty group shows.
  const filtered = Object.entries(props.view).some(([k, v]) => k !== 'sort' && k !== 'layout' && v !== '');
  if (counts && counts.total === 0 && (filtered || props.group === null)) return null;
  return (
    <section class="group-section" aria-labelledby={`${id}-title`}>
      <div class="group-head">
        <h3 id={`${id}-title`}>
          <button
            type="button"
            class="group-toggle"
            aria-expanded={open === true}
            aria-controls={`${id}-body`}
            onClick={() => setOpen(!open)}
          >
            <span class="chevron" aria-hidden="true">
              ▸
            </span>
            {name}
          </button>
        </h3>
        {worst && <StatusBadge status={worst} />}
        <span class="group-counts">{counts ? countsText(counts) : '…'}</span>
      </div>
      <div id={`${id}-body`} hidden={open !== true}>
        <ErrorBox message={error} inset />
        {items && items.length === 0 && <p class="empty">No monitor of this group matches.</p>}
        {items && items.length > 0 && <MonitorRows monitors={items} selection={null} />}
        <ShowMore next={next} onMore={more} busy={busy} />
      </div>
    </section>
  );
};

/** Every group as a section (the first 100 groups by the API's order), then the ungrouped monitors. */
export const GroupSections = (props: { groups: Group[]; view: ListState }) => (
  <div class="group-sections">
    {props.groups.map((g) => (
      <GroupSection key={g.id} group={g} view={props.view} />
    ))}
    <GroupSection group={null} view={props.view} />
  </div>
);

/** The workspace's groups (the first page), or null while unknown. */
export const useGroups = () => {
  const [groups, setGroups] = useState<Group[] | null>(null);
  useEffect(() => {
    api.listGroups().then(
      (r) => setGroups([...r.data].sort((a, b) => a.name.localeCompare(b.name))),
      () => setGroups([]),
    );
  }, []);
  return groups;
};
