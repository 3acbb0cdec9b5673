import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ImportInputError, type ImportSource } from '../import-source.js';
import { mapGatus } from './map-gatus.js';

/**
 * `npx lookout import gatus FILE`: Gatus's `config.yaml`, or a folder of them merged as Gatus merges
 * `GATUS_CONFIG_PATH` (README, "Configuration": every `*.yaml` and `*.yml` below it, maps merged,
 * lists appended, a plain value set in two files refused).
 */
export const source: ImportSource = {
  name: 'gatus',
  label: 'Gatus',
  usage: 'FILE',
  read: async ({ file }) => {
    if (!file) throw new ImportInputError('needs FILE, the path of Gatus’s config.yaml (or its folder)');
    let isDir: boolean;
    try {
      isDir = statSync(file).isDirectory();
    } catch (e) {
      throw new ImportInputError(`cannot read ${file}: ${(e as Error).message}`);
    }
    if (!isDir) return mapGatus(parseGatus(readText(file), file));
    const files = yamlFilesIn(file);
    if (!files.length) throw new ImportInputError(`${file} holds no .yaml or .yml file`);
    let merged: Record<string, unknown> = {};
    for (const f of files) merged = mergeConfig(merged, parseYaml(readText(f), f), '');
    return mapGatus(checkGatus(merged, file));
  },
};

/** At most this many files in a folder (Gatus has no limit; a folder this large is not a config). */
const MAX_FILES = 1000;

const readText = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ImportInputError(`cannot read ${file}: ${(e as Error).message}`);
  }
};

const yamlFilesIn = (dir: string, out: string[] = []): string[] => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yamlFilesIn(path, out);
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
    if (out.length > MAX_FILES) throw new ImportInputError(`${dir} holds more than ${MAX_FILES} YAML files`);
  }
  return out;
};

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Gatus's merge of two files: maps deep, lists appended, a plain value only once. */
export const mergeConfig = (a: Record<string, unknown>, b: Record<string, unknown>, at: string) => {
  const out = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const path = at ? `${at}.${key}` : key;
    const have = out[key];
    if (have === undefined) out[key] = value;
    else if (Array.isArray(have) && Array.isArray(value)) out[key] = [...have, ...value];
    else if (isMap(have) && isMap(value)) out[key] = mergeConfig(have, value, path);
    else throw new ImportInputError(`${path} is set in two files (Gatus refuses that too)`);
  }
  return out;
};

const parseYaml = (text: string, file: string): Record<string, unknown> => {
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new ImportInputError(`${file} is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) return {};
  if (!isMap(data)) throw new ImportInputError(`${file} is not a Gatus configuration: not a mapping`);
  return data;
};

const checkGatus = (config: Record<string, unknown>, file: string) => {
  if (!(Array.isArray(config.endpoints) || Array.isArray(config['external-endpoints'])))
    throw new ImportInputError(
      `${file} is not a Gatus configuration: it has no endpoints or external-endpoints list`,
    );
  return config;
};

/** The YAML of a Gatus configuration: a mapping with `endpoints` or `external-endpoints` lists. */
export const parseGatus = (text: string, file = 'config.yaml'): Record<string, unknown> =>
  checkGatus(parseYaml(text, file), file);
