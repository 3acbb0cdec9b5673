import type { MonitorType } from '../types.js';
import { browser } from './browser.js';
import type { CheckField, CheckType } from './check-type.js';
import { dns, domain, tcp } from './first-types.js';
import { api, http } from './http.js';
import { multistep } from './multistep.js';
import { grpc, mysql, ping, postgres, redis, smtp, websocket } from './new-types.js';

/**
 * Every check type, one line each: what a monitor of the type may set, its defaults, how its target is
 * checked and what its prober is sent. The API's fields, the OpenAPI document, the MCP tools, the
 * configuration schema and the web form are all derived from this table.
 */
export const CHECK_TYPES: { readonly [T in MonitorType]: CheckType } = {
  http,
  api,
  dns,
  tcp,
  domain,
  ping,
  grpc,
  websocket,
  smtp,
  postgres,
  mysql,
  redis,
  multistep,
  browser,
};

const entries = Object.entries(CHECK_TYPES) as [MonitorType, CheckType][];

/** Every type-specific field, with the schema all types that have it share (the first one met). */
export const TYPE_FIELDS: Readonly<Record<string, CheckField>> = Object.fromEntries(
  entries.flatMap(([, t]) => Object.entries(t.fields)).reverse(),
);

/** Which types have each type-specific field: a field sent for another type is refused, naming it. */
export const TYPES_OF_FIELD: Readonly<Record<string, readonly MonitorType[]>> = Object.fromEntries(
  Object.keys(TYPE_FIELDS).map((f) => [f, entries.filter(([, t]) => f in t.fields).map(([type]) => type)]),
);

/** The fields a type keeps in the record's `settings`. */
export const settingsFieldsOf = (type: MonitorType): string[] =>
  Object.entries(CHECK_TYPES[type].fields)
    .filter(([, f]) => f.stored === 'settings')
    .map(([name]) => name);
