import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ImportInputError, type ImportSource } from '../import-source.js';
import { mapGatus } from './map-gatus.js';

/** `npx lookout import gatus FILE`: Gatus's `config.yaml` (one file; merge a directory's files first). */
export const source: ImportSource = {
  name: 'gatus',
  label: 'Gatus',
  usage: 'FILE',
  read: async ({ file }) => {
    if (!file) throw new ImportInputError('needs FILE, the path of Gatus’s config.yaml');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ImportInputError(`cannot read ${file}: ${(e as Error).message}`);
    }
    return mapGatus(parseGatus(text, file));
  },
};

/** The YAML of a Gatus configuration: a mapping with `endpoints` or `external-endpoints` lists. */
export const parseGatus = (text: string, file = 'config.yaml'): Record<string, unknown> => {
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new ImportInputError(`${file} is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const config =
    data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  if (!config || !(Array.isArray(config.endpoints) || Array.isArray(config['external-endpoints'])))
    throw new ImportInputError(
      `${file} is not a Gatus configuration: it has no endpoints or external-endpoints list`,
    );
  return config;
};
