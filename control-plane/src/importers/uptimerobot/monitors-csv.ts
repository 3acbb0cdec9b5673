import { ImportInputError } from '../import-source.js';
import type { UrMonitor } from './uptimerobot-shapes.js';

/**
 * The dashboard's CSV export of monitors, read by its header row (test/fixtures/import/uptimerobot/
 * SOURCE.md): one row per monitor, the columns found by name whatever their order or case — name
 * (`Friendly Name`), `URL`, `Type` (HTTP(s), Keyword, Ping, Port, Heartbeat or the API's number),
 * `Port`, `Keyword`/`Keyword Value`, `Keyword Type`, `Interval` (seconds, or `5 min`), `Status`.
 */

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
export const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
    } else field += ch;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
};

type Column = 'name' | 'url' | 'type' | 'port' | 'keyword' | 'keywordType' | 'interval' | 'status' | 'id';
const COLUMNS: Record<Column, string[]> = {
  name: ['friendly name', 'name', 'monitor name'],
  url: ['url', 'url/ip', 'host', 'url / ip'],
  type: ['type', 'monitor type'],
  port: ['port'],
  keyword: ['keyword value', 'keyword'],
  keywordType: ['keyword type', 'alert when'],
  interval: ['interval', 'monitoring interval', 'check interval'],
  status: ['status'],
  id: ['id', 'monitor id'],
};

const TYPES: Record<string, number> = {
  http: 1,
  'http(s)': 1,
  https: 1,
  keyword: 2,
  ping: 3,
  port: 4,
  heartbeat: 5,
  cron: 5,
};

const seconds = (v: string) => {
  const m = /^\s*(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?\s*$/i.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  return unit.startsWith('h') ? n * 3600 : unit.startsWith('m') ? n * 60 : n;
};

export const readMonitorsCsv = (text: string, file: string): UrMonitor[] => {
  const rows = parseCsv(text);
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const col = Object.fromEntries(
    Object.entries(COLUMNS).map(([k, names]) => [
      k,
      names.map((n) => header.indexOf(n)).find((i) => i >= 0) ?? -1,
    ]),
  ) as Record<Column, number>;
  if (col.name < 0 || col.url < 0 || col.type < 0)
    throw new ImportInputError(
      `${file}: not UptimeRobot's monitors CSV (its header row needs Friendly Name, URL and Type columns)`,
    );
  const cell = (row: string[], k: Column) => (col[k] >= 0 ? (row[col[k]] ?? '').trim() : '');
  return rows.slice(1).map((row, i): UrMonitor => {
    const typeText = cell(row, 'type').toLowerCase();
    const type = TYPES[typeText] ?? (Number(typeText) || 0);
    const keywordType = cell(row, 'keywordType').toLowerCase();
    const port = cell(row, 'port');
    return {
      id: Number(cell(row, 'id')) || i + 1,
      friendly_name: cell(row, 'name'),
      url: cell(row, 'url'),
      type,
      sub_type: port ? 99 : null,
      port: port || null,
      keyword_value: cell(row, 'keyword'),
      // "exists" / 1: down when the keyword is there; "not exists" / 2 (or nothing said): down when it is not.
      keyword_type:
        keywordType === '1' || (keywordType.endsWith('exists') && !keywordType.includes('not')) ? 1 : 2,
      interval: seconds(cell(row, 'interval')) ?? 300,
      status: /paused/i.test(cell(row, 'status')) || cell(row, 'status') === '0' ? 0 : 1,
    };
  });
};
