import { createHash } from 'node:crypto';
import {
  COMPONENT_STATUS_LABEL,
  type LiveStatus,
  SEVERITY,
} from '../../domain/status-pages/component-status.js';
import type { StatusView } from '../../domain/status-pages/public-view.js';
import type { ComponentStatus, Incident } from '../../domain/status-pages/status-page-store.js';
import { esc, INCIDENT_LABEL, pageTitle } from './html.js';

/*
 * The machine-readable forms of a public page: Atlassian Statuspage's public `api/v2/summary.json`
 * and `status.json` (the fields its widgets and tools read), Atom and RSS feeds of incidents and their
 * updates, and SVG badges. `url` is the page's absolute address.
 */

const iso = (d: Date) => d.toISOString();
/** Statuspage gives a group an id of its own; ours is derived from the page and the group's name. */
const groupId = (pageId: string, name: string) =>
  createHash('sha256').update(`${pageId}\0${name}`).digest('hex').slice(0, 12);

/** An incident's impact in Statuspage's words, from the worst status it states. */
const impactOf = (i: Incident) => {
  const worst = Object.values(i.components).reduce<ComponentStatus>(
    (a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a),
    'operational',
  );
  return worst === 'major_outage'
    ? 'major'
    : worst === 'partial_outage' || worst === 'degraded_performance'
      ? 'minor'
      : 'none';
};

const pageJson = (view: StatusView, url: string) => ({
  id: view.page.id,
  name: view.page.name,
  url,
  time_zone: 'Etc/UTC',
  updated_at: iso(view.generated_at),
});

const componentsJson = (view: StatusView) => {
  const out: Record<string, unknown>[] = [];
  const groups = new Map<string, { id: string; members: string[]; status: LiveStatus; position: number }>();
  view.components.forEach((c, position) => {
    let group_id: string | null = null;
    if (c.group !== null) {
      group_id = groupId(view.page.id, c.group);
      const g = groups.get(c.group);
      if (g) {
        g.members.push(c.id);
        if (SEVERITY[c.status] > SEVERITY[g.status]) g.status = c.status;
      } else groups.set(c.group, { id: group_id, members: [c.id], status: c.status, position });
    }
    out.push({
      id: c.id,
      name: c.name,
      status: c.status,
      created_at: iso(view.page.updated_at),
      updated_at: iso(view.generated_at),
      position: position + 1,
      description: c.description,
      showcase: true,
      start_date: null,
      group_id,
      page_id: view.page.id,
      group: false,
      only_show_if_degraded: false,
    });
  });
  for (const [name, g] of groups)
    out.push({
      id: g.id,
      name,
      status: g.status,
      created_at: iso(view.page.updated_at),
      updated_at: iso(view.generated_at),
      position: g.position + 1,
      description: null,
      showcase: false,
      start_date: null,
      group_id: null,
      page_id: view.page.id,
      group: true,
      only_show_if_degraded: false,
      components: g.members,
    });
  return out;
};

const incidentJson = (view: StatusView, i: Incident, url: string) => {
  const named = (ids: string[]) =>
    ids.flatMap((id) => {
      const c = view.components.find((x) => x.id === id);
      return c ? [{ id: c.id, name: c.name, status: c.status }] : [];
    });
  return {
    id: i.id,
    name: i.title,
    status: i.status,
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
    monitoring_at: iso(i.updates.find((u) => u.status === 'monitoring')?.created_at ?? i.created_at),
    resolved_at: i.resolved_at ? iso(i.resolved_at) : null,
    impact: impactOf(i),
    shortlink: `${url}#incident-${i.id}`,
    started_at: iso(i.created_at),
    page_id: view.page.id,
    incident_updates: [...i.updates].reverse().map((u) => ({
      id: u.id,
      status: u.status,
      body: u.message,
      incident_id: i.id,
      created_at: iso(u.created_at),
      updated_at: iso(u.created_at),
      display_at: iso(u.created_at),
      affected_components: Object.entries(u.components).flatMap(([id, s]) => {
        const c = view.components.find((x) => x.id === id);
        return c ? [{ code: id, name: c.name, new_status: s }] : [];
      }),
    })),
    components: named(Object.keys(i.components)),
  };
};

export const statusJson = (view: StatusView, url: string) =>
  JSON.stringify({ page: pageJson(view, url), status: view.status });

export const summaryJson = (view: StatusView, url: string) =>
  JSON.stringify({
    page: pageJson(view, url),
    components: componentsJson(view),
    incidents: view.active.map((i) => incidentJson(view, i, url)),
    scheduled_maintenances: view.maintenances.map((m) => ({
      id: m.id,
      name: m.name,
      status: m.status,
      created_at: iso(m.starts_at),
      updated_at: iso(view.generated_at),
      monitoring_at: null,
      resolved_at: null,
      impact: 'maintenance',
      shortlink: url,
      started_at: iso(m.starts_at),
      page_id: view.page.id,
      scheduled_for: iso(m.starts_at),
      scheduled_until: iso(m.ends_at),
      // A recurring window is listed by its next occurrence; its rule is the one update readers see.
      incident_updates: m.recurrence
        ? [
            {
              id: `${m.id}-rule`,
              incident_id: m.id,
              status: m.status,
              body: `Scheduled maintenance: ${m.recurrence}`,
              created_at: iso(m.starts_at),
              updated_at: iso(view.generated_at),
              display_at: iso(m.starts_at),
            },
          ]
        : [],
      components: m.component_ids.flatMap((id) => {
        const c = view.components.find((x) => x.id === id);
        return c ? [{ id: c.id, name: c.name, status: c.status }] : [];
      }),
    })),
    status: view.status,
  });

/**
 * Characters XML 1.0 does not allow (C0 controls but tab and line breaks, lone surrogates, U+FFFE and
 * U+FFFF) and the C1 controls it discourages. Input refuses them (freeText and nameText in
 * domain/validation.ts); a feed or badge drops any that are stored anyway (older data, a direct write),
 * since one of them makes the whole document unreadable to every feed reader.
 */
const NOT_XML = /[^\t\n\r\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
/** A feed or badge document with no character a parser refuses. */
export const xmlSafe = (doc: string) => doc.replace(NOT_XML, '');
export const atomFeed = (view: StatusView, url: string) => xmlSafe(atomDocument(view, url));
export const rssFeed = (view: StatusView, url: string) => xmlSafe(rssDocument(view, url));

/** Every incident the page lists (open, then recent), newest first. */
const feedIncidents = (view: StatusView) =>
  [...view.active, ...view.history].sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime());

const updatesHtml = (i: Incident) =>
  [...i.updates]
    .reverse()
    .map(
      (u) => `<p><strong>${INCIDENT_LABEL[u.status]}</strong> (${iso(u.created_at)}): ${esc(u.message)}</p>`,
    )
    .join('');

const atomDocument = (view: StatusView, url: string) => {
  const items = feedIncidents(view);
  const updated = items[0]?.updated_at ?? view.page.updated_at;
  const entries = items
    .map(
      (i) =>
        `<entry><id>urn:uuid:${i.id}</id><title>${esc(`${i.title} (${INCIDENT_LABEL[i.status]})`)}</title><published>${iso(
          i.created_at,
        )}</published><updated>${iso(i.updated_at)}</updated><link rel="alternate" type="text/html" href="${esc(
          `${url}#incident-${i.id}`,
        )}"/><content type="html">${esc(updatesHtml(i))}</content></entry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:uuid:${view.page.id}</id><title>${esc(
    pageTitle(view.page.name),
  )}</title><updated>${iso(updated)}</updated><author><name>${esc(view.page.name)}</name></author><link rel="alternate" type="text/html" href="${esc(
    url,
  )}"/><link rel="self" type="application/atom+xml" href="${esc(`${url}/feed.atom`)}"/>${entries}</feed>`;
};

const rssDocument = (view: StatusView, url: string) => {
  const items = feedIncidents(view)
    .map(
      (i) =>
        `<item><title>${esc(`${i.title} (${INCIDENT_LABEL[i.status]})`)}</title><link>${esc(`${url}#incident-${i.id}`)}</link><guid isPermaLink="false">${
          i.id
        }:${i.version}</guid><pubDate>${i.updated_at.toUTCString()}</pubDate><description>${esc(updatesHtml(i))}</description></item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${esc(
    pageTitle(view.page.name),
  )}</title><link>${esc(url)}</link><description>${esc(
    `Incidents and their updates on ${view.page.name}`,
  )}</description><atom:link href="${esc(`${url}/feed.rss`)}" rel="self" type="application/rss+xml"/><lastBuildDate>${view.generated_at.toUTCString()}</lastBuildDate>${items}</channel></rss>`;
};

const COLOUR: Record<LiveStatus, string> = {
  operational: '#1f9d55',
  unknown: '#6b7280',
  degraded_performance: '#e59400',
  partial_outage: '#e59400',
  major_outage: '#d63a3a',
  under_maintenance: '#3b82f6',
};

/** A flat two-part badge (label | value), widths estimated from the text (about 6.5 px a character at 11 px). */
const badgeDocument = (label: string, value: string, colour: string) => {
  const w = (s: string) => Math.round(s.length * 6.5 + 12);
  const lw = w(label);
  const vw = w(value);
  const total = lw + vw;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${esc(
    `${label}: ${value}`,
  )}"><title>${esc(`${label}: ${value}`)}</title><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/><g fill="#fff" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle"><text x="${
    lw / 2
  }" y="14">${esc(label)}</text><text x="${lw + vw / 2}" y="14">${esc(value)}</text></g></svg>`;
};

export const badgeSvg = (label: string, value: string, colour: string) =>
  xmlSafe(badgeDocument(label, value, colour));

const INDICATOR_COLOUR = {
  none: '#1f9d55',
  minor: '#e59400',
  major: '#d63a3a',
  critical: '#a11d1d',
} as const;

/** Grey, not green, while some component has no data yet (the description says so). */
export const pageBadge = (view: StatusView) =>
  badgeSvg(
    'status',
    view.status.description.toLowerCase(),
    view.status.indicator === 'none' &&
      view.components.some((c) => c.status === 'unknown') &&
      !view.components.some((c) => c.status === 'under_maintenance')
      ? COLOUR.unknown
      : INDICATOR_COLOUR[view.status.indicator],
  );

/** Null when the page has no such component. */
export const componentBadge = (view: StatusView, componentId: string) => {
  const c = view.components.find((x) => x.id === componentId);
  return c ? badgeSvg(c.name, COMPONENT_STATUS_LABEL[c.status].toLowerCase(), COLOUR[c.status]) : null;
};
