/**
 * UptimeRobot API v2 as its documentation (https://uptimerobot.com/api/) describes it: what
 * `getMonitors` (with `alert_contacts=1`, `mwindows=1`, `custom_http_headers=1`), `getAlertContacts`
 * and `getMWindows` answer. Numbers may come as strings (the API is loose about it): readers coerce.
 */

/** A monitor's alert contact as `getMonitors` lists it with `alert_contacts=1`. */
export interface UrMonitorContact {
  id: string;
  type?: number;
  value?: string;
  /** Minutes to wait before alerting, and between repeats (0: none). */
  threshold?: number;
  recurrence?: number;
}

export interface UrMonitor {
  id: number;
  friendly_name: string;
  url: string;
  /** 1 HTTP(s), 2 keyword, 3 ping, 4 port, 5 heartbeat. */
  type: number;
  /** Port monitors: 1 HTTP (80), 2 HTTPS (443), 3 FTP (21), 4 SMTP (25), 5 POP3 (110), 6 IMAP (143), 99 custom. */
  sub_type?: number | string | null;
  /** Keyword monitors: 1 down when the keyword exists, 2 down when it does not. */
  keyword_type?: number | string | null;
  /** 0 case-sensitive, 1 case-insensitive. */
  keyword_case_type?: number | string | null;
  keyword_value?: string | null;
  http_username?: string | null;
  http_password?: string | null;
  /** 1 basic, 2 digest. */
  http_auth_type?: number | string | null;
  /** 1 HEAD, 2 GET, 3 POST, 4 PUT, 5 PATCH, 6 DELETE, 7 OPTIONS. */
  http_method?: number | string | null;
  /** 1 key-value, 2 raw. */
  post_type?: number | string | null;
  post_value?: unknown;
  /** 1 text/html, 2 application/json. */
  post_content_type?: number | string | null;
  port?: number | string | null;
  /** Seconds. */
  interval: number;
  /** Seconds (HTTP, keyword and port monitors). */
  timeout?: number | null;
  /** 0 paused, 1 not checked yet, 2 up, 8 seems down, 9 down. */
  status: number;
  custom_http_headers?: Record<string, unknown> | null;
  /** `404:1_200:0`: 1 up, 0 down. */
  custom_http_statuses?: string | null;
  ignore_ssl_errors?: number | string | null;
  alert_contacts?: UrMonitorContact[];
  mwindows?: { id: number | string }[];
}

export interface UrContact {
  id: string;
  friendly_name: string;
  /** 1 SMS, 2 e-mail, 3 Twitter DM, 4 Boxcar, 5 web-hook, 6 Pushbullet, 7 Zapier, 9 Pushover, 10 HipChat, 11 Slack, 21 Google Chat. */
  type: number;
  /** 0 not activated, 1 paused, 2 active. */
  status?: number;
  value: string;
}

export interface UrMWindow {
  id: number | string;
  friendly_name: string;
  /** 1 once, 2 daily, 3 weekly, 4 monthly. */
  type: number;
  /** Once: Unix seconds; otherwise `HH:mm`. */
  start_time: number | string;
  /** Minutes. */
  duration: number;
  /** Weekly: days `1-3-5` (1 Monday … 7 Sunday); monthly: days of the month `1-15`. */
  value?: string | null;
  /** 0 paused, 1 active. */
  status?: number;
}

/** What the importer reads: null where the source did not list it (the CSV export). */
export interface UrInput {
  monitors: UrMonitor[];
  contacts: UrContact[] | null;
  mwindows: UrMWindow[] | null;
  /** Where the monitors came from, for the messages: `the API` or `the CSV export`. */
  from: 'api' | 'csv';
}
