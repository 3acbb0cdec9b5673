import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Me } from './api.js';
import { followLink } from './router.js';

interface NavItem {
  href: string;
  label: string;
  /** Current for every path below `href` (a list and its detail pages), not only `href` itself. */
  prefix?: boolean;
  admin?: boolean;
}

const MAIN_NAV: NavItem[] = [
  { href: '/monitors', label: 'Monitors', prefix: true },
  { href: '/heartbeats', label: 'Heartbeats', prefix: true },
  { href: '/groups', label: 'Groups', prefix: true },
  { href: '/alerts', label: 'Alerts', prefix: true },
  { href: '/reports', label: 'Reports' },
  { href: '/schedules', label: 'Schedules', prefix: true },
  { href: '/status-pages', label: 'Status pages', prefix: true },
  { href: '/regions', label: 'Regions' },
];

/** Routing (escalation, channels, integrations, maintenance): admins only. */
const ROUTING_NAV: NavItem[] = [
  { href: '/routing/escalation-policies', label: 'Escalation policies' },
  { href: '/routing/channels', label: 'Channels' },
  { href: '/routing/integrations', label: 'Integrations' },
  { href: '/routing/maintenance', label: 'Maintenance' },
];

const SETTINGS_NAV: NavItem[] = [
  { href: '/settings/my-shifts', label: 'My shifts' },
  { href: '/settings/notifications', label: 'Notification settings' },
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/secrets', label: 'Secrets' },
  { href: '/settings/users', label: 'Users', admin: true },
  { href: '/settings/mail', label: 'Mail', admin: true },
  { href: '/settings/sso', label: 'Single sign-on', admin: true },
  { href: '/settings/audit-log', label: 'Audit log', admin: true },
  { href: '/settings/connected-apps', label: 'Connected apps' },
  { href: '/settings/password', label: 'Password' },
  { href: '/settings/security', label: 'Security' },
];

/** One list of the navigation: the items this role may open, the current page marked. */
const NavList = (props: { items: NavItem[]; path: string; isAdmin: boolean; labelledBy?: string }) => (
  <ul aria-labelledby={props.labelledBy}>
    {props.items
      .filter((n) => !n.admin || props.isAdmin)
      .map((n) => (
        <li key={n.href}>
          <a
            href={n.href}
            onClick={followLink}
            aria-current={
              (n.prefix ? props.path.startsWith(n.href) : props.path === n.href) ? 'page' : undefined
            }
          >
            {n.label}
          </a>
        </li>
      ))}
  </ul>
);

export const Logo = () => (
  <svg class="logo-mark" viewBox="0 0 32 32" aria-hidden="true">
    <rect width="32" height="32" rx="7" />
    <circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" stroke-width="2.5" />
    <circle cx="16" cy="16" r="3" fill="#fff" />
  </svg>
);

/** The signed-in frame: brand and workspace, the navigation (Monitors, Settings), who is signed in, Sign out. */
export const Shell = (props: {
  me: Me;
  path: string;
  onSignedOut: () => void;
  children: ComponentChildren;
}) => {
  const [busy, setBusy] = useState(false);
  const isAdmin = props.me.user.role === 'admin';
  // On a phone the navigation is one row that scrolls sideways: keep the current page's tab in view.
  useEffect(() => {
    document
      .querySelector('.sidenav a[aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [props.path]);
  const signOut = async () => {
    setBusy(true);
    try {
      await api.signOut();
    } catch {
      // Signed out already, or the server is away: either way this browser is done with the session.
    }
    props.onSignedOut();
  };
  return (
    <div class="shell">
      <header class="topbar">
        <a class="brand" href="/monitors" onClick={followLink}>
          <Logo />
          <span>Lookout</span>
        </a>
        <span class="workspace" title="Workspace">
          {props.me.workspace.name}
        </span>
        <div class="account">
          <span class="who">
            {props.me.user.email} <span class="role">{props.me.user.role}</span>
          </span>
          <button type="button" class="button subtle" onClick={signOut} disabled={busy}>
            Sign out
          </button>
        </div>
      </header>
      <div class="body">
        <nav class="sidenav" aria-label="Main">
          <NavList items={MAIN_NAV} path={props.path} isAdmin={isAdmin} />
          {isAdmin && (
            <>
              <p class="nav-heading" id="routing-heading">
                Routing
              </p>
              <NavList items={ROUTING_NAV} path={props.path} isAdmin={isAdmin} labelledBy="routing-heading" />
            </>
          )}
          <p class="nav-heading" id="settings-heading">
            Settings
          </p>
          <NavList items={SETTINGS_NAV} path={props.path} isAdmin={isAdmin} labelledBy="settings-heading" />
        </nav>
        <main class="content">{props.children}</main>
      </div>
    </div>
  );
};
