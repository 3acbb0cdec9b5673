import { type Body, ok } from '../../api-client/client.js';
import { channelBodyDoc } from '../../domain/routing/channels.js';
import { maskUrl } from '../../http/serialize.js';
import { allPages, Hidden, type Item, type Live, type ResourceKind, SECRET_HEADER } from '../kind.js';

/**
 * Per channel type, what of its `config` the API does not show back (a function: the file's value →
 * does it match what the API shows) and which readable values are secrets all the same. A new channel
 * type whose config holds a token adds its line here.
 */
const CONFIG_SECRETS: Record<
  string,
  {
    hidden?: Record<string, (shown: unknown) => (fileValue: unknown) => boolean>;
    sensitive?: (path: (string | number)[]) => boolean;
  }
> = {
  // Slack's incoming webhook URL is its secret: the API shows its origin and last four characters.
  slack: { hidden: { url: (shown) => (v) => typeof v === 'string' && maskUrl(v) === shown } },
  webhook: { sensitive: (p) => p[0] === 'config' && p[1] === 'headers' && SECRET_HEADER.test(String(p[2])) },
};

export const channels: ResourceKind = {
  key: 'channels',
  noun: 'channel',
  nameField: 'name',
  item: channelBodyDoc,
  writeRole: 'admin',
  list: (a) => allPages((cursor) => ok(a.GET('/channels', { params: { query: { limit: 100, cursor } } }))),
  immutable: ['type'],
  fromLive(live) {
    const type = live.type as string;
    const config = { ...(live.config as Item) };
    for (const [field, matcher] of Object.entries(CONFIG_SECRETS[type]?.hidden ?? {}))
      if (field in config) config[field] = new Hidden(matcher(config[field]));
    return { name: live.name, type, config };
  },
  references: () => [],
  toBody: (item) => ({ ...item }),
  sensitive: (item, path) => CONFIG_SECRETS[String(item.type)]?.sensitive?.(path) ?? false,
  create: async (a, body) =>
    (await ok(a.POST('/channels', { body: body as Body<'/channels', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    // The API replaces the whole config of the channel's type: the file's config is sent whole.
    await ok(
      a.PATCH('/channels/{id}', {
        params: { path: { id: live.id } },
        body: body as Body<'/channels/{id}', 'patch'>,
      }),
    );
  },
  async remove(a, live) {
    await ok(a.DELETE('/channels/{id}', { params: { path: { id: live.id } } }));
  },
  createdNote: (c) =>
    c.type === 'webhook'
      ? `channel "${c.name}": its signing secret (X-Lookout-Signature) was shown once in the API's answer and is not printed here`
      : undefined,
};
