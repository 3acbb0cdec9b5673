import { ApiError, type LookoutClient, ok } from '../api-client/client.js';
import { allPages, type Live } from './kind.js';
import { kindByKey } from './kinds/index.js';
import { NameBook } from './name-book.js';

/** Reads a kind whole; a kind the key may not read is `forbidden` with the API's words. */
const readKind = async (api: LookoutClient, key: string): Promise<Live[] | { forbidden: string }> => {
  try {
    if (key === 'users')
      return await allPages((cursor) => ok(api.GET('/users', { params: { query: { limit: 100, cursor } } })));
    return await kindByKey(key)!.list(api);
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return { forbidden: e.message };
    throw e;
  }
};

export interface Workspace {
  live: Map<string, Live[] | { forbidden: string }>;
  names: NameBook;
}

/** Reads the kinds asked for (and users, for policies), and books every name. */
export const readWorkspace = async (api: LookoutClient, keys: Iterable<string>): Promise<Workspace> => {
  const live = new Map<string, Live[] | { forbidden: string }>();
  const names = new NameBook();
  for (const key of keys) {
    if (key !== 'users' && !kindByKey(key)) continue;
    const records = await readKind(api, key);
    live.set(key, records);
    if (!Array.isArray(records)) continue;
    const nameField = key === 'users' ? 'email' : kindByKey(key)!.nameField;
    for (const r of records) names.set(key, String(r[nameField]), r.id);
  }
  return { live, names };
};
