import { ImportInputError, type ImportSource } from '../import-source.js';

/** Placeholder until the Uptime Kuma importer lands: its owner replaces this file's body. */
export const source: ImportSource = {
  name: 'uptime-kuma',
  label: 'Uptime Kuma',
  usage: 'FILE (its JSON backup, or kuma.db)',
  read: async () => {
    throw new ImportInputError('importing from Uptime Kuma is not yet available');
  },
};
