import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Me } from './api.js';
import { followLink } from './router.js';

/** Routing (escalation, channels, integrations, maintenance): admins only. */
const ROUTING_NAV = [
  { href: '/routing/escalation-policies', label: 'Escalation policies' },
  { href: '/routing/channels', label: 'Channels' },
  { href: '/routing/integrations', label: 'Integrations' },
  { href: '/routing/maintenance', label: 'Maintenance' },
];

const NAV: { href: string; label: string; admin?: boolean }[] = [
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/users', label: 'Users', admin: true },
  { href: '/settings/connected-apps', label: 'Connected apps' },
  { href: '/settings/password', label: 'Password' },
];

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
          <ul>
            <li>
              <a
                href="/monitors"
                onClick={followLink}
                aria-current={props.path.startsWith('/monitors') ? 'page' : undefined}
              >
                Monitors
              </a>
            </li>
            <li>
              <a
                href="/heartbeats"
                onClick={followLink}
                aria-current={props.path.startsWith('/heartbeats') ? 'page' : undefined}
              >
                Heartbeats
              </a>
            </li>
            <li>
              <a
                href="/alerts"
                onClick={followLink}
                aria-current={props.path.startsWith('/alerts') ? 'page' : undefined}
              >
                Alerts
              </a>
            </li>
          </ul>
          {props.me.user.role === 'admin' && (
            <>
              <p class="nav-heading" id="routing-heading">
                Routing
              </p>
              <ul aria-labelledby="routing-heading">
                {ROUTING_NAV.map((n) => (
                  <li key={n.href}>
                    <a
                      href={n.href}
                      onClick={followLink}
                      aria-current={props.path === n.href ? 'page' : undefined}
                    >
                      {n.label}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p class="nav-heading" id="settings-heading">
            Settings
          </p>
          <ul aria-labelledby="settings-heading">
            {NAV.filter((n) => !n.admin || props.me.user.role === 'admin').map((n) => (
              <li key={n.href}>
                <a
                  href={n.href}
                  onClick={followLink}
                  aria-current={props.path === n.href ? 'page' : undefined}
                >
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main class="content">{props.children}</main>
      </div>
    </div>
  );
};
