import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import type { ChannelStore } from '../../domain/notifications/channel-store.js';
import {
  type ChannelRules,
  channelBodyDoc,
  createChannel,
  deleteChannel,
  updateChannel,
  updateChannelBody,
} from '../../domain/notifications/channels.js';
import { channelTarget, retryable, testMessage } from '../../domain/notifications/messages.js';
import type { Delivery } from '../../domain/types.js';
import { CHANNEL_KINDS } from '../../notify/kinds/index.js';
import { idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import {
  channelCreatedResponse,
  channelJson,
  channelKindResponse,
  channelKindsJson,
  channelResponse,
  deliveryJson,
  deliveryResponse,
} from './responses.js';

export const channelRoutes = ({
  store,
  clock,
  config,
  box,
  dispatcher,
}: RouteDeps<ChannelStore & AlertStore>) => {
  const rules: ChannelRules = {
    kinds: CHANNEL_KINDS,
    box,
    blockPrivate: !config.notify_allow_private,
  };
  const load = async (auth: Authed, id: string | undefined) => {
    const c = await store.getChannel(auth.workspace.id, idOf(id));
    if (!c) throw new AppError('not_found', 'Notification channel not found.');
    return c;
  };
  return [
    route({
      method: 'get',
      path: '/channel-kinds',
      tag: 'Notification channels',
      response: z.strictObject({ data: z.array(channelKindResponse) }),
      summary:
        'The notification kinds a channel can be: for each, its `type`, its name, the JSON Schema of its `config` (the same rules the API checks), which config fields are secrets (write-only: shown as at most their last four characters, kept when a PATCH leaves them out) and which alert events after "raised" it is sent (acknowledged, resolved).',
      role: 'admin',
      async handler() {
        return { data: channelKindsJson() };
      },
    }),
    route({
      method: 'get',
      path: '/channels',
      tag: 'Notification channels',
      response: page(channelResponse),
      summary: 'List notification channels, newest first.',
      role: 'admin',
      query: z.strictObject(pageQuery),
      async handler({ auth, query }) {
        const page = await store.listChannels(auth.workspace.id, query);
        return { data: page.data.map(channelJson), next_cursor: page.next_cursor };
      },
    }),
    route({
      method: 'post',
      path: '/channels',
      tag: 'Notification channels',
      response: channelCreatedResponse,
      summary:
        "Create a channel. `config` is in the words of the kind's service (GET /channel-kinds lists every kind with its JSON Schema). A webhook's response carries `signing_secret` once (HMAC-SHA256 signature in X-Lookout-Signature). Secrets (tokens, keys, webhook URLs whose path is the secret) are write-only.",
      role: 'admin',
      body: channelBodyDoc(CHANNEL_KINDS),
      status: 201,
      async handler({ auth, body }) {
        const c = await createChannel(store, rules, auth.workspace.id, body, clock.now());
        return { ...channelJson(c), ...(c.secret ? { signing_secret: c.secret } : {}) };
      },
    }),
    route({
      method: 'get',
      path: '/channels/{id}',
      tag: 'Notification channels',
      response: channelResponse,
      summary: 'Get a notification channel.',
      role: 'admin',
      responses: { 404: 'No such channel in this workspace' },
      async handler({ auth, params }) {
        return channelJson(await load(auth, params.id));
      },
    }),
    route({
      method: 'patch',
      path: '/channels/{id}',
      tag: 'Notification channels',
      response: channelResponse,
      summary:
        'Rename a channel or replace its config (the whole config of its type, except secrets: one left out, or sent back as the hint the API shows, keeps its value).',
      role: 'admin',
      body: updateChannelBody,
      responses: { 404: 'No such channel in this workspace' },
      async handler({ auth, params, body }) {
        return channelJson(
          await updateChannel(store, rules, auth.workspace.id, idOf(params.id), body, clock.now()),
        );
      },
    }),
    route({
      method: 'delete',
      path: '/channels/{id}',
      tag: 'Notification channels',
      response: null,
      summary: 'Delete a channel that no escalation policy notifies.',
      role: 'admin',
      status: 204,
      responses: { 404: 'No such channel in this workspace', 409: 'Still used by a policy' },
      async handler({ auth, params }) {
        await deleteChannel(store, auth.workspace.id, idOf(params.id));
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/channels/{id}/test',
      audit: { noRecord: true },
      tag: 'Notification channels',
      response: z.strictObject({
        ok: z.boolean(),
        outcome: z.enum(['sent', 'failed']),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        response: z.string().nullable().describe("The start of the service's answer (its body)."),
        retry_after_seconds: z.number().nullable(),
        would_retry: z.boolean(),
        attempts: z.array(deliveryResponse),
      }),
      summary:
        "Send one test notification through the channel now and report its outcome at once: `ok`, `outcome` (sent or failed), the service's answer (`status_code`, `response`: the start of its body), `error`, `retry_after_seconds` when it asked to wait, and `would_retry` (whether a real notification would try again after this failure). A test is never retried; the attempt is logged like any delivery.",
      role: 'admin',
      responses: { 404: 'No such channel in this workspace' },
      async handler({ auth, params }) {
        const channel = await load(auth, params.id);
        const target = channelTarget(channel);
        const deliveryId = `test:${newId()}`;
        const attempts: Delivery[] = [];
        const result = await dispatcher.send(
          target,
          testMessage(auth.workspace, channel, auth.user, deliveryId, clock.now()),
          deliveryId,
          async (n, r) => {
            const d: Delivery = {
              id: newId(),
              workspace_id: auth.workspace.id,
              alert_id: null,
              channel_id: channel.id,
              user_id: null,
              kind: target.kind,
              target: dispatcher.describe(target),
              step: null,
              round: null,
              attempt: n,
              outcome: r.ok ? 'sent' : 'failed',
              permanent: r.permanent,
              status_code: r.status_code,
              error: r.error,
              idempotency_key: deliveryId,
              remote_id: r.remote_id ?? null,
              test: true,
              at: clock.now(),
            };
            attempts.push(d);
            await store.insertDelivery(d);
          },
          { maxAttempts: 1 },
        );
        return {
          ok: result.ok,
          outcome: result.ok ? 'sent' : 'failed',
          status_code: result.status_code,
          error: result.error,
          response: result.response ?? null,
          retry_after_seconds: result.retry_after_ms ? Math.ceil(result.retry_after_ms / 1000) : null,
          would_retry: retryable(result),
          attempts: attempts.map(deliveryJson),
        };
      },
    }),
    route({
      method: 'get',
      path: '/channels/{id}/deliveries',
      tag: 'Notification channels',
      response: page(deliveryResponse),
      summary:
        'The channel’s delivery log, newest first, paged by `cursor`: every attempt of every notification and test, with its outcome, the status the service answered, the error, and whether it was retried.',
      role: 'admin',
      query: z.strictObject(pageQuery),
      responses: { 404: 'No such channel in this workspace' },
      async handler({ auth, params, query }) {
        const channel = await load(auth, params.id);
        const list = await store.listChannelDeliveries(auth.workspace.id, channel.id, query);
        return { data: list.data.map(deliveryJson), next_cursor: list.next_cursor };
      },
    }),
  ];
};
