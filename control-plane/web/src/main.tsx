import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Me, onUnauthorized } from './api.js';
import { Shell } from './layout.js';
import { MAIL_SETTINGS_PATH, MailBanner } from './mail-banner.js';
import { AcceptInvitePage } from './pages/accept-invite.js';
import { AlertDetailPage } from './pages/alert-detail.js';
import { AlertsPage } from './pages/alerts.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { ChangePasswordPage } from './pages/change-password.js';
import { ChannelsPage } from './pages/channels/channels-page.js';
import { ConnectedAppsPage } from './pages/connected-apps.js';
import { EscalationPoliciesPage } from './pages/escalation-policies.js';
import { HeartbeatPage } from './pages/heartbeats/heartbeat-page.js';
import { HeartbeatsPage } from './pages/heartbeats/heartbeats-page.js';
import { IntegrationsPage } from './pages/integrations.js';
import { MailSettingsPage } from './pages/mail-settings.js';
import { MaintenancePage } from './pages/maintenance.js';
import { MonitorDetailPage } from './pages/monitor-detail.js';
import { MonitorFormPage } from './pages/monitor-form/monitor-form-page.js';
import { MonitorsPage } from './pages/monitors.js';
import { NotFoundPage } from './pages/not-found.js';
import { NOTIFICATION_SETTINGS_PATH, NotificationSettingsPage } from './pages/notification-settings.js';
import { SignInPage } from './pages/sign-in.js';
import { StatusPageEditor } from './pages/status-pages/status-page-editor.js';
import { StatusPageScreen } from './pages/status-pages/status-page-screen.js';
import { StatusPagesPage } from './pages/status-pages/status-pages-page.js';
import { UsersPage } from './pages/users.js';
import { navigate, usePath } from './router.js';
import './styles.css';

/** Where signing in lands. */
const HOME = '/monitors';
/** Shown signed in or not: accepting an invitation signs in. */
const ACCEPT = '/accept-invite';

/**
 * Where to go after signing in when the server sent the user here (`/sign-in?next=…`): only the
 * OAuth consent step of the hosted MCP connector, a server page, so it is a full navigation.
 */
const serverNext = () => {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/oauth\/interaction\/[\w-]{1,100}$/.test(next) ? next : null;
};

/** Which page a path shows, once signed in, and its title. */
const pageFor = (path: string, me: Me) => {
  if (path === '/monitors') return { title: 'Monitors', page: <MonitorsPage me={me} /> };
  if (path === '/monitors/new') return { title: 'New monitor', page: <MonitorFormPage me={me} /> };
  const monitor = /^\/monitors\/([\w-]+)(\/edit)?$/.exec(path);
  if (monitor?.[2])
    return { title: 'Edit monitor', page: <MonitorFormPage key={path} me={me} id={monitor[1]} /> };
  if (monitor) return { title: 'Monitor', page: <MonitorDetailPage key={path} me={me} id={monitor[1]!} /> };
  if (path === '/alerts') return { title: 'Alerts', page: <AlertsPage me={me} /> };
  const alert = /^\/alerts\/([\w-]+)$/.exec(path);
  if (alert) return { title: 'Alert', page: <AlertDetailPage key={path} me={me} id={alert[1]!} /> };
  if (path === '/heartbeats') return { title: 'Heartbeats', page: <HeartbeatsPage me={me} /> };
  const heartbeat = /^\/heartbeats\/([\w-]{1,100})$/.exec(path)?.[1];
  if (heartbeat)
    return { title: 'Heartbeat', page: <HeartbeatPage key={heartbeat} me={me} id={heartbeat} /> };
  if (path === '/status-pages') return { title: 'Status pages', page: <StatusPagesPage me={me} /> };
  if (path === '/status-pages/new') return { title: 'New status page', page: <StatusPageEditor me={me} /> };
  const statusPage = /^\/status-pages\/([\w-]{1,100})(\/edit)?$/.exec(path);
  if (statusPage?.[2])
    return {
      title: 'Edit status page',
      page: <StatusPageEditor key={path} me={me} id={statusPage[1]!} />,
    };
  if (statusPage)
    return { title: 'Status page', page: <StatusPageScreen key={path} me={me} id={statusPage[1]!} /> };
  if (path === '/routing/escalation-policies')
    return { title: 'Escalation policies', page: <EscalationPoliciesPage me={me} /> };
  if (path === '/routing/channels') return { title: 'Channels', page: <ChannelsPage me={me} /> };
  if (path === '/routing/integrations') return { title: 'Integrations', page: <IntegrationsPage me={me} /> };
  if (path === '/routing/maintenance')
    return { title: 'Maintenance windows', page: <MaintenancePage me={me} /> };
  if (path === '/settings/api-keys') return { title: 'API keys', page: <ApiKeysPage me={me} /> };
  if (path === '/settings/users') return { title: 'Users', page: <UsersPage me={me} /> };
  if (path === '/settings/password') return { title: 'Password', page: <ChangePasswordPage /> };
  if (path === MAIL_SETTINGS_PATH) return { title: 'Mail settings', page: <MailSettingsPage me={me} /> };
  if (path === NOTIFICATION_SETTINGS_PATH)
    return { title: 'Notification settings', page: <NotificationSettingsPage me={me} /> };
  if (path === '/settings/connected-apps')
    return { title: 'Connected apps', page: <ConnectedAppsPage me={me} /> };
  return { title: 'Page not found', page: <NotFoundPage path={path} /> };
};

const App = () => {
  const path = usePath();
  /** undefined while asking the server; null when signed out. */
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [after, setAfter] = useState<string | null>(null);

  useEffect(() => {
    // Without the server's signed-in hint there is no session to ask about (and no 401 to log).
    if (document.cookie.split('; ').some((c) => c.startsWith('lookout_signed_in=')))
      api.session().then(setMe, () => setMe(null));
    else setMe(null);
    return onUnauthorized(() => setMe(null));
  }, []);

  useEffect(() => {
    if (path === ACCEPT) return;
    if (me === null && path !== '/sign-in') {
      if (path !== '/') setAfter(path);
      navigate('/sign-in', { replace: true });
    } else if (me && (path === '/sign-in' || path === '/' || path === '/settings')) {
      const next = path === '/sign-in' ? serverNext() : null;
      if (next) location.replace(next);
      else navigate(HOME, { replace: true });
    }
  }, [me, path]);

  useEffect(() => {
    const title =
      path === ACCEPT ? 'Join' : me ? pageFor(path, me).title : me === null ? 'Sign in' : 'Lookout';
    document.title = `${title} · Lookout`;
  }, [me, path]);

  if (path === ACCEPT)
    return (
      <AcceptInvitePage
        onJoined={(m) => {
          setMe(m);
          navigate(HOME, { replace: true });
        }}
      />
    );
  if (me === undefined) return <div class="loading" aria-busy="true" />;
  if (me === null)
    return (
      <SignInPage
        onSignedIn={(m) => {
          const next = serverNext();
          if (next) {
            location.assign(next);
            return;
          }
          setMe(m);
          navigate(after ?? HOME, { replace: true });
          setAfter(null);
        }}
      />
    );
  return (
    <Shell me={me} path={path} onSignedOut={() => setMe(null)}>
      <MailBanner me={me} path={path} />
      {pageFor(path, me).page}
    </Shell>
  );
};

render(<App />, document.getElementById('app')!);
