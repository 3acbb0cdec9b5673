import { ImportInputError, type ImportSource } from '../import-source.js';
import { readUptimeRobotApi, readUptimeRobotFile, UPTIMEROBOT_URL } from './read-uptimerobot.js';

/**
 * `npx lookout import uptimerobot (--api-key KEY [--api-url URL] | FILE)`: API v2 with a read-only (or
 * main) key, `--api-url` defaulting to https://api.uptimerobot.com; or FILE, the dashboard's CSV
 * export of monitors (or a saved `getMonitors` JSON answer).
 */
export const source: ImportSource = {
  name: 'uptimerobot',
  label: 'UptimeRobot',
  usage: '(--api-key KEY [--api-url URL] | FILE)',
  read: async (args) => {
    if (args.file !== undefined && args.apiKey !== undefined)
      throw new ImportInputError('give either FILE or --api-key, not both');
    // One-off maintenance windows that have ended are left out: "now" is the machine's clock.
    const now = new Date();
    if (args.file !== undefined) return readUptimeRobotFile(args.file, now);
    if (args.apiKey === undefined)
      throw new ImportInputError(
        'give FILE (the CSV export of monitors) or --api-key KEY (a read-only API key)',
      );
    return readUptimeRobotApi(args.apiUrl ?? UPTIMEROBOT_URL, args.apiKey, now);
  },
};
