import { ImportInputError, type ImportSource } from '../import-source.js';

/** Placeholder until the UptimeRobot importer lands: its owner replaces this file's body. */
export const source: ImportSource = {
  name: 'uptimerobot',
  label: 'UptimeRobot',
  usage: '(--api-key KEY [--api-url URL] | FILE)',
  read: async () => {
    throw new ImportInputError('importing from UptimeRobot is not yet available');
  },
};
