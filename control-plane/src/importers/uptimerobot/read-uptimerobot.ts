import { readFileSync } from 'node:fs';
import type { ImportOutcome } from '../import-outcome.js';
import { ImportInputError } from '../import-source.js';
import { requestJson, sourceBase, sourceError } from '../source-http.js';
import { mapUptimeRobot } from './map-uptimerobot.js';
import { readMonitorsCsv } from './monitors-csv.js';
import type { UrContact, UrInput, UrMonitor, UrMWindow } from './uptimerobot-shapes.js';

/** UptimeRobot's API address: `--api-url` for a proxy (or a test). */
export const UPTIMEROBOT_URL = 'https://api.uptimerobot.com';

/** Pages of 50 (the API's most), at most this many a list: 10,000 monitors. */
const PAGE = 50;
const MAX_PAGES = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * One method of the API: POST, form-encoded, `api_key` and `format=json` in the body (never in the
 * URL, which a proxy would log). `{"stat": "fail", "error": {…}}` is a refusal: its message, never
 * the `passed_value` it echoes (the key).
 */
const call = async (base: URL, method: string, key: string, params: Record<string, string>) => {
  const body = new URLSearchParams({ api_key: key, format: 'json', ...params }).toString();
  const { status, json } = await requestJson(new URL(`v2/${method}`, base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache' },
    body,
    secret: key,
  });
  if (isObject(json) && json.stat === 'fail') {
    const err = isObject(json.error) ? json.error : {};
    const said =
      typeof err.message === 'string' ? err.message : typeof err.type === 'string' ? err.type : 'refused';
    throw sourceError(`UptimeRobot ${method} refused: ${said}`, key);
  }
  if (status === 429)
    throw sourceError(`UptimeRobot ${method}: rate limited (429); try again in a minute`, key);
  if (status !== 200 || !isObject(json) || json.stat !== 'ok')
    throw sourceError(`UptimeRobot ${method} answered ${status} without {"stat": "ok"}`, key);
  return json;
};

/** Every page of one list: `offset`/`limit` until `total` (in `pagination`, or beside the list). */
const allPages = async <T>(
  base: URL,
  method: string,
  listKey: string,
  key: string,
  params: Record<string, string> = {},
) => {
  const all: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const json = await call(base, method, key, {
      ...params,
      offset: String(all.length),
      limit: String(PAGE),
    });
    const list = json[listKey];
    if (!Array.isArray(list))
      throw sourceError(`UptimeRobot ${method}: no "${listKey}" list in the answer`, key);
    all.push(...(list as T[]));
    const paging = isObject(json.pagination) ? json.pagination : json;
    const total = Number(paging.total ?? all.length);
    if (list.length === 0 || all.length >= total) return all;
  }
  throw sourceError(`UptimeRobot ${method}: more than ${PAGE * MAX_PAGES} items`, key);
};

export const readUptimeRobotApi = async (apiUrl: string, key: string, now: Date): Promise<ImportOutcome> => {
  if (!key.trim()) throw new ImportInputError('--api-key is empty');
  const base = sourceBase(apiUrl, 'the UptimeRobot API, e.g. https://api.uptimerobot.com');
  // The documentation's URLs end in /v2/<method>: an address copied with /v2 works as well.
  base.pathname = base.pathname.replace(/v2\/$/, '');
  const monitors = await allPages<UrMonitor>(base, 'getMonitors', 'monitors', key, {
    alert_contacts: '1',
    mwindows: '1',
    custom_http_headers: '1',
  });
  const contacts = await allPages<UrContact>(base, 'getAlertContacts', 'alert_contacts', key);
  const mwindows = await allPages<UrMWindow>(base, 'getMWindows', 'mwindows', key);
  const input: UrInput = {
    monitors: monitors.filter((m) => isObject(m) && typeof m.friendly_name === 'string'),
    contacts: contacts.filter((c) => isObject(c) && c.id !== undefined),
    mwindows: mwindows.filter((w) => isObject(w) && w.id !== undefined),
    from: 'api',
  };
  return mapUptimeRobot(input, now);
};

/**
 * A file: the CSV export of monitors, or JSON saved from the API — a `getMonitors` answer
 * (`{"monitors": [...]}`), with `alert_contacts` and `mwindows` lists beside it when it has them.
 */
export const readUptimeRobotFile = (file: string, now: Date): ImportOutcome => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ImportInputError(`cannot read ${file}: ${(e as Error).message}`);
  }
  if (/^\s*[{[]/.test(text)) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new ImportInputError(`${file} is not JSON: ${(e as Error).message}`);
    }
    if (!isObject(doc) || !Array.isArray(doc.monitors))
      throw new ImportInputError(`${file}: not a getMonitors answer (expected {"monitors": [...]})`);
    return mapUptimeRobot(
      {
        monitors: doc.monitors as UrMonitor[],
        contacts: Array.isArray(doc.alert_contacts) ? (doc.alert_contacts as UrContact[]) : null,
        mwindows: Array.isArray(doc.mwindows) ? (doc.mwindows as UrMWindow[]) : null,
        from: 'api',
      },
      now,
    );
  }
  return mapUptimeRobot(
    { monitors: readMonitorsCsv(text, file), contacts: null, mwindows: null, from: 'csv' },
    now,
  );
};
