import { z } from 'zod';
import { KINDS } from './kinds/index.js';

/**
 * The configuration file (`lookout export`, `plan -f`, `apply -f`): `version: 1` and one list per
 * kind, each item the API's create body with references by name. The JSON Schema published for
 * editors (`docs/lookout-config.schema.json`, and `/api/v1/lookout-config.schema.json` on every
 * server) is generated from this, so it says what the API takes.
 */
export const CONFIG_VERSION = 1;

export const configFileSchema = z.strictObject({
  version: z.literal(CONFIG_VERSION).optional(),
  ...Object.fromEntries(KINDS.map((k) => [k.key, z.array(k.item).optional()])),
});

export const SCHEMA_FILE_NAME = 'lookout-config.schema.json';

/** The JSON Schema of the file (what clients send: the input side of every schema). */
export const configJsonSchema = () => ({
  ...z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
  title: 'Lookout configuration (lookout export / plan / apply)',
});
