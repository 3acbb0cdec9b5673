import { readFileSync } from 'node:fs';
import type { ImportOutcome } from '../import-outcome.js';
import { ImportInputError } from '../import-source.js';
import { requestJson, sourceBase, sourceError } from '../source-http.js';
import type { HcChannel } from './map-channels.js';
import { type HcCheck, type HcInput, mapHealthchecks } from './map-healthchecks.js';

/** Healthchecks' public address: `--api-url` for a self-hosted instance (or a test). */
export const HEALTHCHECKS_URL = 'https://healthchecks.io';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The parts of a `{"checks": [...]}` (and `{"channels": [...]}`) document this importer reads. */
export const parseHealthchecks = (doc: unknown, channelsDoc?: unknown): HcInput => {
  if (!isObject(doc) || !Array.isArray(doc.checks))
    throw new ImportInputError(
      'not a Healthchecks checks list: expected {"checks": [...]} (GET /api/v3/checks/)',
    );
  const checks = doc.checks.filter(
    (c): c is HcCheck => isObject(c) && typeof c.name === 'string' && typeof c.grace === 'number',
  );
  if (checks.length !== doc.checks.length)
    throw new ImportInputError(
      `${doc.checks.length - checks.length} of the checks lack a name or a grace: not the API's shape`,
    );
  const list = isObject(channelsDoc) ? channelsDoc.channels : isObject(doc) ? doc.channels : undefined;
  const channels = Array.isArray(list)
    ? list.filter(
        (c): c is HcChannel =>
          isObject(c) && typeof c.id === 'string' && typeof c.kind === 'string' && typeof c.name === 'string',
      )
    : null;
  return { checks, channels };
};

/**
 * A JSON file: `{"checks": [...]}` as the API lists them, with the integrations beside them as
 * `"channels": [...]` (GET /api/v3/channels/) when the file has them.
 */
export const readHealthchecksFile = (file: string): ImportOutcome => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ImportInputError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ImportInputError(`${file} is not JSON: ${(e as Error).message}`);
  }
  return mapHealthchecks(parseHealthchecks(doc));
};

const apiGet = async (base: URL, path: string, key: string) => {
  const { status, json } = await requestJson(new URL(path, base), {
    method: 'GET',
    headers: { 'x-api-key': key },
    secret: key,
  });
  return { status, json };
};

const refusal = (status: number, json: unknown, key: string) => {
  const said = isObject(json) && typeof json.error === 'string' ? `: ${json.error}` : '';
  return sourceError(
    status === 401
      ? `Healthchecks refused the API key (401${said}); use the project's read-only or read-write key`
      : `Healthchecks answered ${status}${said}`,
    key,
  );
};

/**
 * The Management API v3: the checks, then the integrations. A read-only key lists the checks
 * (without their channels) and is refused the integrations (401): read on without them.
 */
export const readHealthchecksApi = async (apiUrl: string, key: string): Promise<ImportOutcome> => {
  if (!key.trim()) throw new ImportInputError('--api-key is empty');
  const base = sourceBase(apiUrl, 'the Healthchecks site, e.g. https://healthchecks.io');
  // An address copied from the API documentation (…/api/v3/) works as well as the site's.
  base.pathname = base.pathname.replace(/api\/v[0-9]+\/$/, '');
  const checks = await apiGet(base, 'api/v3/checks/', key);
  if (checks.status !== 200) throw refusal(checks.status, checks.json, key);
  const input = parseHealthchecks(checks.json, {});
  const readOnly = input.checks.some((c) => c.channels === undefined);
  if (!readOnly) {
    const channels = await apiGet(base, 'api/v3/channels/', key);
    if (channels.status !== 200) throw refusal(channels.status, channels.json, key);
    input.channels = parseHealthchecks({ checks: [] }, channels.json).channels;
  }
  return mapHealthchecks(input);
};
