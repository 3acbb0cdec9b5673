import { stringify } from 'yaml';
import type { LookoutClient } from '../api-client/client.js';
import { CONFIG_VERSION, SCHEMA_FILE_NAME } from './config-file.js';
import { envNameFor, Hidden, type Item, type ResourceKind } from './kind.js';
import { KINDS } from './kinds/index.js';
import { readWorkspace } from './read-workspace.js';

/**
 * `export`: the workspace as a configuration file. Every kind the key may read, sorted by name (so
 * that exports diff well); references by name; values the API does not show, and readable secrets
 * (credential headers), as `${ENV}` references whose names are listed in `secrets`. A kind the key
 * may not read is left out and named in `skipped`.
 */
export const exportConfig = async (
  api: LookoutClient,
  opts: { apiUrl: string; now: Date },
): Promise<{ text: string; secrets: string[]; skipped: { kind: string; reason: string }[] }> => {
  const { live, names } = await readWorkspace(api, [...KINDS.map((k) => k.key), 'users']);
  const secrets: string[] = [];
  const skipped: { kind: string; reason: string }[] = [];
  const doc: Record<string, unknown> = { version: CONFIG_VERSION };
  for (const kind of KINDS) {
    const records = live.get(kind.key);
    if (!records || !Array.isArray(records)) {
      skipped.push({
        kind: kind.key,
        reason: (records as { forbidden: string } | undefined)?.forbidden ?? '',
      });
      continue;
    }
    doc[kind.key] = records
      .filter((r) => kind.managed?.(r, opts.now) ?? true)
      .map((r) => kind.fromLive(r, names))
      .sort((a, b) => String(a[kind.nameField]).localeCompare(String(b[kind.nameField])))
      .map((item) => withSecretsAsEnv(kind, item, secrets));
  }
  const header = `# yaml-language-server: $schema=${opts.apiUrl}/${SCHEMA_FILE_NAME}\n`;
  return { text: header + stringify(doc, { lineWidth: 0 }), secrets, skipped };
};

const withSecretsAsEnv = (kind: ResourceKind, item: Item, secrets: string[]): Item => {
  const name = String(item[kind.nameField]);
  const walk = (v: unknown, path: (string | number)[]): unknown => {
    if (v instanceof Hidden || (typeof v === 'string' && path.length && kind.sensitive?.(item, path))) {
      const env = envNameFor(kind.noun, name, path);
      secrets.push(env);
      return `\${${env}}`;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    // A literal `${` in a value would read as a reference: written as `$${` (a function: in a
    // replacement string `$$` would be one `$`).
    if (typeof v === 'string') return v.replaceAll('${', () => '$${');
    return v;
  };
  return walk(item, []) as Item;
};
