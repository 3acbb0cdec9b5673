import { ImportInputError, type ImportSource } from '../import-source.js';
import { HEALTHCHECKS_URL, readHealthchecksApi, readHealthchecksFile } from './read-healthchecks.js';

/**
 * `npx lookout import healthchecks (--api-url URL --api-key KEY | FILE)`: the Management API v3 with a
 * read-only or read-write key (`--api-url` defaults to https://healthchecks.io; a self-hosted
 * instance gives its own), or a JSON file of `GET /api/v3/checks/` (with `"channels"` beside the checks
 * when it has them).
 */
export const source: ImportSource = {
  name: 'healthchecks',
  label: 'Healthchecks',
  usage: '(--api-url URL --api-key KEY | FILE)',
  read: async (args) => {
    if (args.file !== undefined && args.apiKey !== undefined)
      throw new ImportInputError('give either FILE or --api-key, not both');
    if (args.file !== undefined) return readHealthchecksFile(args.file);
    if (args.apiKey === undefined)
      throw new ImportInputError('give FILE (a JSON list of checks) or --api-key KEY (a project API key)');
    return readHealthchecksApi(args.apiUrl ?? HEALTHCHECKS_URL, args.apiKey);
  },
};
