import { ImportInputError, type ImportSource } from '../import-source.js';

/** Placeholder until the Healthchecks importer lands: its owner replaces this file's body. */
export const source: ImportSource = {
  name: 'healthchecks',
  label: 'Healthchecks',
  usage: '(--api-url URL --api-key KEY | FILE)',
  read: async () => {
    throw new ImportInputError('importing from Healthchecks is not yet available');
  },
};
