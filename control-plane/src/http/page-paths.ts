/**
 * Every page of the web app, once. The server answers these paths with the app's index.html
 * (web-app.ts; any other path is a 404) and the app's router shows the page of that name
 * (web/src/main.tsx, whose table of pages must name each one). `:id` stands for one path segment of
 * 1–100 letters, digits, `_` or `-`; the first pattern that matches names the page. Both builds import
 * this file (tsc for the server, Vite for the app), so it imports nothing.
 */
export const PAGES = {
  home: '/',
  signIn: '/sign-in',
  acceptInvite: '/accept-invite',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  monitors: '/monitors',
  newMonitor: '/monitors/new',
  monitor: '/monitors/:id',
  editMonitor: '/monitors/:id/edit',
  alerts: '/alerts',
  alert: '/alerts/:id',
  reports: '/reports',
  heartbeats: '/heartbeats',
  heartbeat: '/heartbeats/:id',
  groups: '/groups',
  regions: '/regions',
  schedules: '/schedules',
  newSchedule: '/schedules/new',
  schedule: '/schedules/:id',
  editSchedule: '/schedules/:id/edit',
  statusPages: '/status-pages',
  newStatusPage: '/status-pages/new',
  statusPage: '/status-pages/:id',
  editStatusPage: '/status-pages/:id/edit',
  escalationPolicies: '/routing/escalation-policies',
  channels: '/routing/channels',
  integrations: '/routing/integrations',
  maintenance: '/routing/maintenance',
  settings: '/settings',
  apiKeys: '/settings/api-keys',
  users: '/settings/users',
  password: '/settings/password',
  mailSettings: '/settings/mail',
  ssoSettings: '/settings/sso',
  notificationSettings: '/settings/notifications',
  connectedApps: '/settings/connected-apps',
  myShifts: '/settings/my-shifts',
  secrets: '/settings/secrets',
  security: '/settings/security',
  auditLog: '/settings/audit-log',
} as const;

export type PageName = keyof typeof PAGES;

const MATCHERS = Object.entries(PAGES).map(([name, pattern]) => ({
  name: name as PageName,
  re: new RegExp(`^${pattern.replace(':id', '([\\w-]{1,100})')}$`),
}));

/** The page a path shows, with its `:id` ('' when it has none); null when the app has no such page. */
export const matchPage = (path: string): { name: PageName; id: string } | null => {
  for (const { name, re } of MATCHERS) {
    const m = re.exec(path);
    if (m) return { name, id: m[1] ?? '' };
  }
  return null;
};
