import type { Heartbeat } from '../types.js';
import { cronFields } from './schedule.js';

/**
 * Copy-paste lines that ping a heartbeat from the usual schedulers, each with the `/start` and the
 * exit-status forms (so a run's duration is recorded and a failing run alerts at once): a crontab
 * line, a systemd service + timer, a Kubernetes CronJob. `url` is the heartbeat's ping URL (uuid or
 * slug form). Pure text: shown on the heartbeat page and carried by its API record.
 */
export interface PingSnippet {
  kind: 'crontab' | 'systemd' | 'kubernetes';
  title: string;
  text: string;
}

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

/** The cron schedule to show: the heartbeat's own, or the nearest one its period stands for. */
export const cronForSnippet = (h: Pick<Heartbeat, 'schedule' | 'period_seconds'>): string => {
  if (h.schedule) return h.schedule;
  const p = h.period_seconds;
  const byPeriod: Record<number, string> = { 3600: '@hourly', 86400: '@daily', 604800: '@weekly' };
  if (byPeriod[p]) return byPeriod[p];
  if (p % 60 === 0 && 3600 % p === 0) return `*/${p / 60} * * * *`;
  if (p % 3600 === 0 && 86400 % p === 0) return `0 */${p / 3600} * * *`;
  return '@daily';
};

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** One cron field as a systemd calendar component, or null when systemd cannot say it. */
const systemdPart = (field: string, day = false): string | null => {
  if (field === '*') return '*';
  const parts = field.split(',').map((part) => {
    const step = /^(\*|\d+)\/(\d+)$/.exec(part);
    if (step && !day) return `${step[1] === '*' ? '0' : step[1]}/${step[2]}`;
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range)
      return day ? `${DAYS[Number(range[1])]}..${DAYS[Number(range[2])]}` : `${range[1]}..${range[2]}`;
    if (/^\d+$/.test(part)) return day ? (DAYS[Number(part)] ?? null) : part.padStart(2, '0');
    return null;
  });
  return parts.every((p) => p !== null && p !== undefined) ? parts.join(',') : null;
};

/** A 5-field cron schedule as systemd's OnCalendar= (with the zone), or null when it has no equivalent. */
export const onCalendar = (schedule: string, timezone: string): string | null => {
  const [minute, hour, dom, month, dow] = cronFields(schedule).split(' ') as [
    string,
    string,
    string,
    string,
    string,
  ];
  // cron runs when either day field matches (if both are set); systemd needs both: not expressible.
  if (dom !== '*' && dow !== '*') return null;
  const m = systemdPart(minute);
  const hh = systemdPart(hour);
  const d = systemdPart(dom);
  const mo = systemdPart(month);
  const numbered = dow
    .toLowerCase()
    .replace(/sun|mon|tue|wed|thu|fri|sat/g, (n) =>
      String(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].indexOf(n)),
    );
  const w = dow === '*' ? '' : systemdPart(numbered, true);
  if (m === null || hh === null || d === null || mo === null || w === null) return null;
  return `${w ? `${w} ` : ''}*-${mo}-${d} ${hh}:${m}:00${timezone === 'UTC' ? ' UTC' : ` ${timezone}`}`;
};

export const pingSnippets = (
  h: Pick<Heartbeat, 'schedule' | 'timezone' | 'period_seconds' | 'slug' | 'display_name'>,
  url: string,
): PingSnippet[] => {
  const cron = cronForSnippet(h);
  const tz = h.timezone || 'UTC';
  const name = h.slug ?? 'my-job';
  const calendar = onCalendar(cron, tz);
  return [
    {
      kind: 'crontab',
      title: 'crontab',
      text: [
        ...(tz !== 'UTC' ? [`CRON_TZ=${tz}`] : []),
        `${cron} ${CURL} ${url}/start; /path/to/${name}; ${CURL} ${url}/$?`,
      ].join('\n'),
    },
    {
      kind: 'systemd',
      title: 'systemd service and timer',
      text: [
        `# /etc/systemd/system/${name}.service`,
        '[Service]',
        'Type=oneshot',
        `ExecStartPre=-/usr/bin/${CURL} ${url}/start`,
        `ExecStart=/path/to/${name}`,
        `ExecStartPost=-/usr/bin/${CURL} ${url}/0`,
        `ExecStopPost=/bin/sh -c 'test "$$SERVICE_RESULT" = success || ${CURL} ${url}/fail'`,
        '',
        `# /etc/systemd/system/${name}.timer`,
        '[Timer]',
        calendar
          ? `OnCalendar=${calendar}`
          : `# OnCalendar= the schedule "${cron}" (${tz}) in systemd's words`,
        'Persistent=true',
        '',
        '[Install]',
        'WantedBy=timers.target',
      ].join('\n'),
    },
    {
      kind: 'kubernetes',
      title: 'Kubernetes CronJob',
      text: [
        'apiVersion: batch/v1',
        'kind: CronJob',
        'metadata:',
        `  name: ${name}`,
        'spec:',
        `  schedule: "${cron}"`,
        `  timeZone: "${tz}"`,
        '  jobTemplate:',
        '    spec:',
        '      template:',
        '        spec:',
        '          restartPolicy: Never',
        '          containers:',
        `            - name: ${name}`,
        '              image: your-image',
        '              command: ["/bin/sh", "-c"]',
        `              args: ["${CURL} ${url}/start; /path/to/${name}; ${CURL} ${url}/$?"]`,
      ].join('\n'),
    },
  ];
};
