import { COMPONENT_STATUS_LABEL } from '../../domain/status-pages/component-status.js';
import { renderMarkdown } from '../../domain/status-pages/markdown.js';
import {
  type ComponentView,
  type DayBar,
  HISTORY_DAYS,
  PHONE_DAYS,
  type StatusView,
  type UptimeOver,
} from '../../domain/status-pages/public-view.js';
import type { Incident, IncidentStatus } from '../../domain/status-pages/status-page-store.js';
import { uptimeBand } from './uptime-band.js';

/*
 * The public status page as one server-rendered HTML document: no script, no framework, no request
 * to anyone else (styles inline, no fonts or images), complete with JavaScript off. Dark when the
 * reader's system is (prefers-color-scheme), one column that fits a phone. Every day's bar is a
 * focusable list item named by its date and uptime, which a tooltip shows on hover and on focus.
 * Everything the author wrote is escaped; a post-mortem is Markdown made safe (markdown.ts).
 */

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const when = (d: Date) => `<time datetime="${d.toISOString()}">${DATE_TIME.format(d)} UTC</time>`;

export const INCIDENT_LABEL: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

const fmtPct = (p: number) => `${p.toFixed(p === 100 ? 0 : 2)}%`;

/** "Acme" → "Acme status"; a name that already says so ("Acme status", "Acme Status") is kept. */
export const pageTitle = (name: string) => (/\bstatus$/i.test(name.trim()) ? name : `${name} status`);

/** The uptime beside a window of `window` days of bars: over the days with checks, saying how many. */
const uptimeText = (u: UptimeOver | null, window: number) =>
  !u || u.uptime === null
    ? 'No data'
    : `${fmtPct(u.uptime)} uptime over ${
        u.days_with_data === window
          ? `${window} days`
          : `${u.days_with_data} ${u.days_with_data === 1 ? 'day' : 'days'} with data`
      }`;

const barClass = (b: DayBar) => uptimeBand(b.uptime);

const bars = (c: ComponentView) => {
  if (c.days.length === 0) return '';
  const items = c.days
    .map(
      (b) =>
        `<li tabindex=0 class=${barClass(b)} aria-label="${DATE.format(new Date(b.day))}: ${
          b.uptime === null ? 'no data' : `${fmtPct(b.uptime)} uptime`
        }"></li>`,
    )
    .join('');
  // A wide screen shows every bar, a phone the newest PHONE_DAYS: each says the uptime of what it shows.
  return `<ol class="bars" aria-label="${esc(c.name)}: uptime by day">${items}</ol><p class="axis"><span><span class="w">${HISTORY_DAYS}</span><span class="p">${PHONE_DAYS}</span> days ago</span><span><span class="w">${uptimeText(
    c.uptime,
    HISTORY_DAYS,
  )}</span><span class="p">${uptimeText(c.recent_uptime, PHONE_DAYS)}</span></span><span>Today</span></p>`;
};

const component = (c: ComponentView) =>
  `<li class="comp"><div class="row"><span class="name">${esc(c.name)}</span><span class="st s-${c.status}">${
    COMPONENT_STATUS_LABEL[c.status]
  }</span></div>${c.description ? `<p class="desc">${esc(c.description)}</p>` : ''}${bars(c)}</li>`;

const components = (list: ComponentView[]) => {
  const groups: { name: string | null; items: ComponentView[] }[] = [];
  for (const c of list) {
    const last = groups.at(-1);
    const existing = c.group === null ? null : groups.find((g) => g.name === c.group);
    if (existing) existing.items.push(c);
    else if (c.group === null && last && last.name === null) last.items.push(c);
    else groups.push({ name: c.group, items: [c] });
  }
  return groups
    .map(
      (g) =>
        `${g.name === null ? '' : `<h3 class="group">${esc(g.name)}</h3>`}<ul class="comps">${g.items.map(component).join('')}</ul>`,
    )
    .join('');
};

const affectedNames = (view: StatusView, ids: string[]) =>
  ids
    .map((id) => view.components.find((c) => c.id === id)?.name)
    .filter((n): n is string => n !== undefined)
    .map(esc)
    .join(', ');

const incident = (view: StatusView, i: Incident, level: 'h3' | 'h4') => {
  const updates = [...i.updates]
    .reverse()
    .map(
      (u) =>
        `<li><p><strong>${INCIDENT_LABEL[u.status]}</strong> — ${esc(u.message)}</p><p class="meta">${when(u.created_at)}</p></li>`,
    )
    .join('');
  const affected = affectedNames(view, Object.keys(i.components));
  return `<article class="inc i-${i.status}" id="incident-${i.id}"><${level}>${esc(i.title)}</${level}>${
    affected ? `<p class="meta">Affects ${affected}</p>` : ''
  }<ol class="updates">${updates}</ol>${
    i.postmortem
      ? `<details class="pm"><summary>Post-mortem</summary><div class="md">${renderMarkdown(i.postmortem)}</div></details>`
      : ''
  }</article>`;
};

const STYLE = `:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#1b1f24;--mute:#5b6470;--line:#d9dde3;--accent:ACCENT;--g:#1f9d55;--y:#9bbf2e;--o:#e59400;--r:#d63a3a;--n:#c4c9d0;--m:#3b82f6}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--card:#171b21;--fg:#e7eaee;--mute:#9aa3ad;--line:#2a3038;--n:#3a414a}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main,footer{max-width:52rem;margin:0 auto;padding:0 1rem}header{padding-top:2rem;padding-bottom:1rem}h1{margin:0;font-size:1.6rem}
h2{font-size:1.15rem;margin:2rem 0 .75rem}h3,h4{margin:0 0 .25rem;font-size:1rem}a{color:var(--accent)}
.banner{border-radius:.5rem;padding:1rem 1.25rem;color:#fff;background:var(--g)}.banner h2{margin:0;font-size:1.25rem}.banner p{margin:.25rem 0 0;opacity:.9;font-size:.9rem}
.b-nodata{background:#5b6470}.b-minor{background:var(--o);color:#1b1f24}.b-major{background:var(--r)}.b-critical{background:#a11d1d}.b-maint{background:var(--m)}
.comps{list-style:none;margin:0 0 1rem;padding:0;background:var(--card);border:1px solid var(--line);border-radius:.5rem}
.comp{padding:.9rem 1rem;border-top:1px solid var(--line)}.comp:first-child{border-top:0}.row{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
.name{font-weight:600;overflow-wrap:anywhere}.desc{margin:.1rem 0 0;color:var(--mute);font-size:.9rem}.group{margin:1rem 0 .5rem;color:var(--mute);font-size:.95rem}
.st{font-size:.9rem;font-weight:600}.s-operational{color:var(--g)}.s-degraded_performance{color:var(--o)}.s-partial_outage{color:var(--o)}.s-major_outage{color:var(--r)}.s-under_maintenance{color:var(--m)}.s-unknown{color:var(--mute)}
.bars{display:flex;gap:2px;list-style:none;margin:.6rem 0 .2rem;padding:0;height:2rem}
.bars li{flex:1;border-radius:2px;position:relative;background:var(--n);min-width:2px}.bars li.g{background:var(--g)}.bars li.y{background:var(--y)}.bars li.o{background:var(--o)}.bars li.r{background:var(--r)}
.bars li:hover,.bars li:focus{outline:2px solid var(--fg);outline-offset:1px}
.bars li:hover::after,.bars li:focus::after{content:attr(aria-label);position:absolute;bottom:calc(100% + 6px);left:50%;transform:translateX(-50%);white-space:nowrap;background:var(--fg);color:var(--bg);font-size:.8rem;padding:.2rem .45rem;border-radius:.25rem;z-index:1}
.bars li:nth-child(-n+25)::after{left:0;transform:none}.bars li:nth-last-child(-n+25)::after{left:auto;right:0;transform:none}
.axis{display:flex;justify-content:space-between;margin:0;color:var(--mute);font-size:.8rem}.axis .p{display:none}
@media (max-width:40rem){.bars li:nth-child(-n+60){display:none}.axis .w{display:none}.axis .p{display:inline}}
.inc{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--o);border-radius:.5rem;padding:.9rem 1rem;margin:0 0 1rem}
.inc.i-resolved{border-left-color:var(--g)}.updates{list-style:none;margin:.5rem 0 0;padding:0}.updates li{margin:0 0 .6rem}.updates p{margin:0;overflow-wrap:anywhere}
.meta{color:var(--mute);font-size:.85rem;margin:0}.maint{border-left-color:var(--m)}.pm summary{cursor:pointer;font-weight:600}.md{overflow-wrap:anywhere}
.empty{color:var(--mute)}footer{padding-top:1rem;padding-bottom:2rem;color:var(--mute);font-size:.85rem}
form{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:1rem;max-width:24rem}label{display:block;font-weight:600;margin-bottom:.25rem}
input{font:inherit;width:100%;padding:.5rem;border:1px solid var(--line);border-radius:.35rem;background:var(--bg);color:var(--fg)}
button{font:inherit;margin-top:.75rem;padding:.5rem 1rem;border:0;border-radius:.35rem;background:var(--accent);color:#fff;cursor:pointer}.err{color:var(--r);font-weight:600}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`;

const shell = (title: string, accent: string | null, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title>${head}<style>${STYLE.replace('ACCENT', accent ?? '#2563eb')}</style></head><body>${body}</body></html>`;

/** Green only when every component is known to be operational; grey while some have no data yet. */
const bannerClass = (view: StatusView) =>
  view.status.indicator === 'none'
    ? view.components.some((c) => c.status === 'under_maintenance')
      ? 'b-maint'
      : view.components.some((c) => c.status === 'unknown')
        ? 'b-nodata'
        : 'b-none'
    : `b-${view.status.indicator}`;

/** The whole page; `base` is its path (`/status/{slug}`, or '' on a custom domain). */
export const statusPageHtml = (view: StatusView, base: string) => {
  const name = esc(view.page.name);
  const maint = view.maintenances
    .map(
      (m) =>
        `<article class="inc maint"><h3>${esc(m.name)}</h3>${
          m.recurrence ? `<p class="meta">Scheduled maintenance: ${esc(m.recurrence)}</p>` : ''
        }<p class="meta">${
          m.status === 'in_progress' ? 'In progress' : m.recurrence ? 'Next on' : 'Scheduled'
        } · ${when(m.starts_at)} – ${when(m.ends_at)}</p><p class="meta">Affects ${affectedNames(view, m.component_ids)}</p></article>`,
    )
    .join('');
  const body = `<header><h1>${name}</h1></header><main>
<section class="banner ${bannerClass(view)}" role="status" aria-live="polite"><h2>${esc(view.status.description)}</h2><p>As of ${when(view.generated_at)}</p></section>
${view.active.length > 0 ? `<section aria-labelledby="active"><h2 id="active">Active incidents</h2>${view.active.map((i) => incident(view, i, 'h3')).join('')}</section>` : ''}
${maint ? `<section aria-labelledby="maintenance"><h2 id="maintenance">Maintenance</h2>${maint}</section>` : ''}
<section aria-labelledby="components"><h2 id="components">Components</h2>${
    view.components.length > 0 ? components(view.components) : '<p class="empty">No components yet.</p>'
  }</section>
<section aria-labelledby="history"><h2 id="history">Past incidents</h2>${
    view.history.length > 0
      ? view.history.map((i) => incident(view, i, 'h3')).join('')
      : '<p class="empty">No incidents in the last 14 days.</p>'
  }</section>
<section aria-labelledby="subscribe"><h2 id="subscribe">Get updates by email</h2><form method="post" action="${base}/subscribe"><label for="sub-email">Email</label><input id="sub-email" name="email" type="email" autocomplete="email" maxlength="320" required><button type="submit">Subscribe</button></form></section></main>
<footer><a href="${base}/feed.atom">Atom feed</a> · <a href="${base}/feed.rss">RSS feed</a> · <a href="${base}/api/v2/summary.json">JSON</a> · Powered by Lookout</footer>`;
  return shell(
    pageTitle(view.page.name),
    view.page.accent_color,
    `<link rel="alternate" type="application/atom+xml" title="${name} incidents" href="${base}/feed.atom"><link rel="alternate" type="application/rss+xml" title="${name} incidents" href="${base}/feed.rss">`,
    body,
  );
};

/** The form a password-protected page answers with until the reader has given its password. */
export const passwordFormHtml = (name: string, accent: string | null, base: string, error: string | null) =>
  shell(
    pageTitle(name),
    accent,
    '<meta name="robots" content="noindex">',
    `<header><h1>${esc(name)}</h1></header><main><h2>This status page is protected</h2>${
      error ? `<p class="err" role="alert">${esc(error)}</p>` : ''
    }<form method="post" action="${base}/access"><label for="pw">Password</label><input id="pw" name="password" type="password" autocomplete="current-password" required><button type="submit">View status</button></form></main>`,
  );

/**
 * A short answer page of the subscribe flow (check your inbox, confirm, unsubscribed), with an
 * optional form of one button that POSTs `token` (a link in a mail only shows this: mail scanners
 * follow links, so only the button acts).
 */
export const messageHtml = (
  name: string,
  accent: string | null,
  base: string,
  heading: string,
  text: string,
  action?: { path: string; token: string; label: string },
) =>
  shell(
    pageTitle(name),
    accent,
    '<meta name="robots" content="noindex">',
    `<header><h1>${esc(name)}</h1></header><main><h2>${esc(heading)}</h2><p>${esc(text)}</p>${
      action
        ? `<form method="post" action="${base}${action.path}"><input type="hidden" name="token" value="${esc(action.token)}"><button type="submit">${esc(action.label)}</button></form>`
        : ''
    }<p><a href="${base || '/'}">Back to the status page</a></p></main>`,
  );

/** The answer to a browser at an address with no status page (a program asking for JSON gets JSON). */
export const pageNotFoundHtml = () =>
  shell(
    'Status page not found',
    null,
    '<meta name="robots" content="noindex">',
    '<header><h1>Status page not found</h1></header><main><p>There is no status page at this address. Check the link, or ask whoever sent it for the right one.</p></main>',
  );
