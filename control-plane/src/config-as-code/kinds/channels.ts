import { type Body, ok } from '../../api-client/client.js';
import { mapSecrets, secretHint } from '../../domain/notifications/channel-kinds.js';
import { channelBodyDoc } from '../../domain/notifications/channels.js';
import { CHANNEL_KINDS } from '../../notify/kinds/index.js';
import { allPages, Hidden, type Item, type Live, type ResourceKind } from '../kind.js';

/**
 * Channels of every notification kind: the file's `config` is the kind's own schema (the registry in
 * notify/kinds/, so a new kind needs nothing here). A kind's secrets are write-only in the API, shown
 * as a hint (at most the last four characters): exported as `${NAME}` and compared by their hint
 * (a webhook's URL, and each of its headers' values, too).
 */
export const channels: ResourceKind = {
  key: 'channels',
  noun: 'channel',
  nameField: 'name',
  item: channelBodyDoc(CHANNEL_KINDS),
  writeRole: 'admin',
  list: (a) => allPages((cursor) => ok(a.GET('/channels', { params: { query: { limit: 100, cursor } } }))),
  immutable: ['type'],
  fromLive(live) {
    const type = live.type as string;
    const config = mapSecrets(
      CHANNEL_KINDS[type],
      { ...(live.config as Item) },
      (_field, shown) => new Hidden((v) => typeof v === 'string' && secretHint(v) === shown),
    );
    return { name: live.name, type, config };
  },
  references: () => [],
  toBody: (item) => ({ ...item }),
  secretField: (item, path) =>
    path[0] === 'config' &&
    (path[1] === 'headers' ||
      (path.length === 2 && (CHANNEL_KINDS[String(item.type)]?.secrets ?? []).includes(String(path[1])))),
  create: async (a, body) =>
    (await ok(a.POST('/channels', { body: body as Body<'/channels', 'post'> }))) as unknown as Live,
  async update(a, live, body) {
    // The API replaces the whole config of the channel's kind: the file's config is sent whole.
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
