import { MAX_COMPONENTS, SLUG_PATTERN } from '../../domain/status-pages/status-pages.js';
import { cleanName, type MapContext, sourceName } from './context.js';
import type { KumaStatusPage } from './kuma-data.js';
import type { Item } from './map-checks.js';
import type { MappedMonitors } from './map-monitors.js';

/**
 * Kuma status pages (`status_page`, its public groups `group` and their monitors `monitor_group`) →
 * Lookout status pages: each monitor of a Kuma group a component in the Lookout group of that name,
 * following the monitor, heartbeat or group it became. A page Kuma does not publish is imported behind
 * a password (a `${ENV}`), never made public.
 */
const slugOf = (slug: string) =>
  slug
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

export const mapStatusPages = (
  pages: KumaStatusPage[],
  mapped: MappedMonitors,
  ctx: MapContext,
  kumaNames: Map<number, string> = new Map(),
): Item[] => {
  const out: Item[] = [];
  for (const p of pages) {
    const source = sourceName('status page', p.title, p.id);
    const unmappedBefore = ctx.unmapped.length;
    const lose = (setting: string, reason: string) => ctx.lose(source, setting, reason);
    const slug = ctx.uniqueName('status_pages', slugOf(p.slug), 64);
    if (!SLUG_PATTERN.test(slug)) {
      lose('', `its slug "${p.slug}" cannot be made a Lookout slug`);
      continue;
    }
    if (slug !== p.slug)
      lose(`slug: ${p.slug}`, `written as ${slug} (lower-case letters, digits and dashes)`);
    const page: Item = { name: cleanName(p.title).slice(0, 200).trim() || slug, slug };
    if (!p.published) {
      page.visibility = 'password';
      page.password = ctx.secret('status_page', slug, 'password', `status_pages "${slug}" password`);
      lose('published: false', 'Lookout pages are public or behind a password: it is behind a password');
    }
    const domain = p.domains.find((d) => DOMAIN.test(d));
    if (domain) page.custom_domain = domain.toLowerCase();
    if (p.domains.length > (domain ? 1 : 0))
      lose(`domains: ${p.domains.join(', ')}`, 'a Lookout page has one custom domain');
    if (p.description?.trim()) lose('description', 'Lookout pages have no description text');
    if (p.footerText?.trim()) lose('footer_text', 'Lookout pages have no footer text');
    if (p.customCss?.trim()) lose('custom_css', 'Lookout pages take an accent colour, not CSS');
    const components: Item[] = [];
    const names = new Set<string>();
    for (const g of p.groups) {
      for (const id of g.monitorIds) {
        const t = mapped.byId.get(id);
        if (!t) {
          lose(
            `group "${g.name}" monitor "${kumaNames.get(id) ?? id}"`,
            'the monitor was not imported (see it above)',
          );
          continue;
        }
        if (components.length >= MAX_COMPONENTS) {
          lose(`group "${g.name}" monitor ${id}`, `a Lookout page has at most ${MAX_COMPONENTS} components`);
          continue;
        }
        let name = t.name;
        for (let n = 2; names.has(name.toLowerCase()); n++) name = `${t.name.slice(0, 190)} (${n})`;
        names.add(name.toLowerCase());
        const follows = t.kind === 'group' ? 'monitor_group' : t.kind;
        components.push({ name, group: cleanName(g.name).slice(0, 100).trim() || null, [follows]: t.name });
      }
    }
    page.components = components;
    out.push(page);
    ctx.attach(unmappedBefore, 'status_pages', out.length - 1);
  }
  return out;
};
