import { type JSX, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { matchPage, PAGES, type PageName } from '../../src/http/page-paths.js';
import { api, type Me, onUnauthorized } from './api.js';
import { Shell } from './layout.js';
import { MailBanner } from './mail-banner.js';
import { AcceptInvitePage } from './pages/accept-invite.js';
import { AlertDetailPage } from './pages/alert-detail.js';
import { AlertsPage } from './pages/alerts.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { AuditLogPage } from './pages/audit-log/audit-log-page.js';
import { ChangePasswordPage } from './pages/change-password.js';
import { ChannelsPage } from './pages/channels/channels-page.js';
import { ConnectedAppsPage } from './pages/connected-apps.js';
import { EscalationPoliciesPage } from './pages/escalation-policies.js';
import { ForgotPasswordPage } from './pages/forgot-password.js';
import { GroupsPage } from './pages/groups.js';
import { HeartbeatPage } from './pages/heartbeats/heartbeat-page.js';
import { HeartbeatsPage } from './pages/heartbeats/heartbeats-page.js';
import { IntegrationsPage } from './pages/integrations.js';
import { MailSettingsPage } from './pages/mail-settings.js';
import { MaintenancePage } from './pages/maintenance.js';
import { MonitorDetailPage } from './pages/monitor-detail.js';
import { MonitorFormPage } from './pages/monitor-form/monitor-form-page.js';
import { MonitorsPage } from './pages/monitors.js';
import { NotFoundPage } from './pages/not-found.js';
import { NotificationSettingsPage } from './pages/notification-settings.js';
import { RegionsPage } from './pages/regions.js';
import { ReportsPage } from './pages/reports/reports-page.js';
import { ResetPasswordPage } from './pages/reset-password.js';
import { MyShiftsPage } from './pages/schedules/my-shifts.js';
import { ScheduleEditorPage } from './pages/schedules/schedule-editor.js';
import { SchedulePage } from './pages/schedules/schedule-page.js';
import { SchedulesPage } from './pages/schedules/schedules-page.js';
import { SecretsPage } from './pages/secrets.js';
import { SecurityPage } from './pages/security/security-page.js';
import { SignInPage } from './pages/sign-in.js';
import { SsoSettingsPage } from './pages/sso-settings.js';
import { StatusPageEditor } from './pages/status-pages/status-page-editor.js';
import { StatusPageScreen } from './pages/status-pages/status-page-screen.js';
import { StatusPagesPage } from './pages/status-pages/status-pages-page.js';
import { UsersPage } from './pages/users.js';
import { navigate, usePath } from './router.js';
import './styles.css';

/** Where signing in lands. */
const HOME = PAGES.monitors;

/**
 * Where to go after signing in when the server sent the user here (`/sign-in?next=…`): only the
 * OAuth consent step of the hosted MCP connector, a server page, so it is a full navigation.
 */
const serverNext = () => {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/oauth\/interaction\/[\w-]{1,100}$/.test(next) ? next : null;
};

/** Pages the app shows before or instead of the signed-in shell (see App). */
type Outside = 'home' | 'signIn' | 'acceptInvite' | 'forgotPassword' | 'resetPassword' | 'settings';
/** Pages shown whether or not someone is signed in: no redirect either way. */
const OPEN: (PageName | undefined)[] = ['acceptInvite', 'forgotPassword', 'resetPassword'];
type View = (me: Me, id: string, path: string) => { title: string; page: JSX.Element };

/** What each signed-in page (page-paths.ts) shows, and its title. */
const VIEWS: Record<Exclude<PageName, Outside>, View> = {
  monitors: (me) => ({ title: 'Monitors', page: <MonitorsPage me={me} /> }),
  newMonitor: (me) => ({ title: 'New monitor', page: <MonitorFormPage me={me} /> }),
  monitor: (me, id, path) => ({ title: 'Monitor', page: <MonitorDetailPage key={path} me={me} id={id} /> }),
  editMonitor: (me, id, path) => ({
    title: 'Edit monitor',
    page: <MonitorFormPage key={path} me={me} id={id} />,
  }),
  alerts: (me) => ({ title: 'Alerts', page: <AlertsPage me={me} /> }),
  alert: (me, id, path) => ({ title: 'Alert', page: <AlertDetailPage key={path} me={me} id={id} /> }),
  reports: (me) => ({ title: 'SLA report', page: <ReportsPage me={me} /> }),
  heartbeats: (me) => ({ title: 'Heartbeats', page: <HeartbeatsPage me={me} /> }),
  heartbeat: (me, id) => ({ title: 'Heartbeat', page: <HeartbeatPage key={id} me={me} id={id} /> }),
  groups: (me) => ({ title: 'Groups', page: <GroupsPage me={me} /> }),
  regions: () => ({ title: 'Regions', page: <RegionsPage /> }),
  schedules: (me) => ({ title: 'Schedules', page: <SchedulesPage me={me} /> }),
  newSchedule: (me) => ({ title: 'New schedule', page: <ScheduleEditorPage me={me} /> }),
  schedule: (me, id, path) => ({ title: 'Schedule', page: <SchedulePage key={path} me={me} id={id} /> }),
  editSchedule: (me, id, path) => ({
    title: 'Edit schedule',
    page: <ScheduleEditorPage key={path} me={me} id={id} />,
  }),
  statusPages: (me) => ({ title: 'Status pages', page: <StatusPagesPage me={me} /> }),
  newStatusPage: (me) => ({ title: 'New status page', page: <StatusPageEditor me={me} /> }),
  statusPage: (me, id, path) => ({
    title: 'Status page',
    page: <StatusPageScreen key={path} me={me} id={id} />,
  }),
  editStatusPage: (me, id, path) => ({
    title: 'Edit status page',
    page: <StatusPageEditor key={path} me={me} id={id} />,
  }),
  escalationPolicies: (me) => ({ title: 'Escalation policies', page: <EscalationPoliciesPage me={me} /> }),
  channels: (me) => ({ title: 'Channels', page: <ChannelsPage me={me} /> }),
  integrations: (me) => ({ title: 'Integrations', page: <IntegrationsPage me={me} /> }),
  maintenance: (me) => ({ title: 'Maintenance windows', page: <MaintenancePage me={me} /> }),
  apiKeys: (me) => ({ title: 'API keys', page: <ApiKeysPage me={me} /> }),
  users: (me) => ({ title: 'Users', page: <UsersPage me={me} /> }),
  password: () => ({ title: 'Password', page: <ChangePasswordPage /> }),
  mailSettings: (me) => ({ title: 'Mail settings', page: <MailSettingsPage me={me} /> }),
  ssoSettings: (me) => ({ title: 'Single sign-on', page: <SsoSettingsPage me={me} /> }),
  notificationSettings: (me) => ({
    title: 'Notification settings',
    page: <NotificationSettingsPage me={me} />,
  }),
  connectedApps: (me) => ({ title: 'Connected apps', page: <ConnectedAppsPage me={me} /> }),
  myShifts: (me) => ({ title: 'My shifts', page: <MyShiftsPage me={me} /> }),
  secrets: (me) => ({ title: 'Secrets', page: <SecretsPage me={me} /> }),
  security: (me) => ({ title: 'Security', page: <SecurityPage me={me} onChanged={() => refreshMe()} /> }),
  auditLog: (me) => ({ title: 'Audit log', page: <AuditLogPage me={me} /> }),
};

/** Asks the server again who is signed in (after a change to their second factors); set by App. */
let refreshMe = () => {};

/** Which page a path shows, once signed in, and its title. */
const pageFor = (path: string, me: Me) => {
  const m = matchPage(path);
  const view = m && m.name in VIEWS ? VIEWS[m.name as keyof typeof VIEWS] : undefined;
  return view && m ? view(me, m.id, path) : { title: 'Page not found', page: <NotFoundPage path={path} /> };
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

  refreshMe = () => {
    api.session().then(setMe, () => setMe(null));
  };

  const name = matchPage(path)?.name;
  useEffect(() => {
    if (OPEN.includes(name)) return;
    if (me === null && name !== 'signIn') {
      // With its query: a linked report or list opens as linked once signed in.
      if (name !== 'home') setAfter(path + location.search);
      navigate(PAGES.signIn, { replace: true });
    } else if (me?.two_factor_setup_required && name !== 'security') {
      // The workspace requires two-factor and this user has none: only the security page until done.
      navigate(PAGES.security, { replace: true });
    } else if (me && (name === 'signIn' || name === 'home' || name === 'settings')) {
      const next = name === 'signIn' ? serverNext() : null;
      if (next) location.replace(next);
      else navigate(HOME, { replace: true });
    }
  }, [me, path]);

  useEffect(() => {
    // Until the session is known (me undefined) the page has no name of its own yet: just "Lookout".
    const title =
      name === 'acceptInvite'
        ? 'Join'
        : name === 'forgotPassword'
          ? 'Forgot password'
          : name === 'resetPassword'
            ? 'Reset password'
            : me
              ? pageFor(path, me).title
              : me === null
                ? 'Sign in'
                : null;
    document.title = title ? `${title} · Lookout` : 'Lookout';
  }, [me, path]);

  if (name === 'acceptInvite')
    return (
      <AcceptInvitePage
        onJoined={(m) => {
          setMe(m);
          navigate(HOME, { replace: true });
        }}
      />
    );
  if (name === 'forgotPassword') return <ForgotPasswordPage />;
  if (name === 'resetPassword')
    return (
      <ResetPasswordPage
        onReset={() => {
          // Every session of the user has ended, this browser's too.
          setMe(null);
          navigate(`${PAGES.signIn}?reset=done`, { replace: true });
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
