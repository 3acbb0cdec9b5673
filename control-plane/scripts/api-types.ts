/**
 * The typed client's types, generated from the OpenAPI document a control plane serves (the route
 * table and its zod schemas), like the agent protocol's code: generated, checked in, and a test fails
 * when they differ (test/e2e/api-types.test.ts).
 *
 *   npm run generate:api     rewrites control-plane/src/api-client/schema.d.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { silentLogger, systemClock } from '@lookout/shared';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { loadConfig } from '../src/config.js';
import { startControlPlane } from '../src/server.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';

export const SCHEMA_FILE = join(import.meta.dirname, '..', 'src', 'api-client', 'schema.d.ts');

const HEADER = `/**
 * Generated from the API's OpenAPI document by \`npm run generate:api\`. Do not edit: change the route's
 * zod schemas (control-plane/src/http) and regenerate.
 */
`;

/** TypeScript types (\`paths\`, \`components\`) for an OpenAPI document. */
export const renderApiTypes = async (doc: OpenAPI3) =>
  HEADER + astToString(await openapiTS(structuredClone(doc), { alphabetize: true, exportType: true }));

/** The document a default control plane serves at /api/v1/openapi.json (on a throwaway data dir). */
export const servedOpenApi = async (): Promise<OpenAPI3> => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-openapi-'));
  const config = loadConfig(
    {},
    { http_port: 0, rpc_port: 0, http_host: '127.0.0.1', data_dir: dir, log_level: 'silent' },
  );
  const store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  const cp = await startControlPlane({ config, store, logger: silentLogger(), clock: systemClock });
  try {
    const res = await fetch(`http://127.0.0.1:${cp.port}/api/v1/openapi.json`);
    return (await res.json()) as OpenAPI3;
  } finally {
    await cp.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(SCHEMA_FILE, await renderApiTypes(await servedOpenApi()));
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
