import { ImportInputError, type ImportSource } from '../import-source.js';
import { importUptimeKuma, readUptimeKuma } from './import-uptime-kuma.js';

/** `npx lookout import uptime-kuma FILE`: its JSON backup (1.x) or its database kuma.db (1.23, 2.x). */
export const source: ImportSource = {
  name: 'uptime-kuma',
  label: 'Uptime Kuma',
  usage: 'FILE (its JSON backup, or kuma.db)',
  read: async ({ file }) => {
    if (!file)
      throw new ImportInputError('name the file: its JSON backup (Settings → Backup) or its kuma.db');
    let data: Awaited<ReturnType<typeof readUptimeKuma>>;
    try {
      data = await readUptimeKuma(file);
    } catch (e) {
      throw new ImportInputError(`cannot read ${file}: ${(e as Error).message}`);
    }
    // The command's moment decides which one-off maintenance has already ended.
    return importUptimeKuma(data, new Date());
  },
};
