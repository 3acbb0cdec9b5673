import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configJsonSchema, SCHEMA_FILE_NAME } from './config-file.js';

/** `npm run schema:config`: writes docs/lookout-config.schema.json (config-file.test.ts fails when it is stale). */
export const schemaText = () => `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
export const SCHEMA_PATH = join(import.meta.dirname, '..', '..', '..', 'docs', SCHEMA_FILE_NAME);

if (process.argv[1] && import.meta.filename === process.argv[1]) writeFileSync(SCHEMA_PATH, schemaText());
