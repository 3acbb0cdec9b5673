import { ImportInputError, type ImportSource } from '../import-source.js';

export const source: ImportSource = {
  name: 'gatus',
  label: 'Gatus',
  usage: 'FILE (its config.yaml)',
  read: async () => {
    throw new ImportInputError('importing from Gatus is not yet available');
  },
};
