/**
 * A valid config for every HTTP kind, pointing at a local service double at `base` (loopback), with
 * the path each one's requests arrive at (a test can tell the kinds apart on one receiver).
 */
export const sampleConfigs = (base: string): Record<string, Record<string, unknown>> => ({
  webhook: { url: `${base}/webhook/in` },
  slack: { url: `${base}/slack/services/T0/B0/XXXX` },
  discord: { webhook_url: `${base}/discord/api/webhooks/1/tok` },
  teams: { webhook_url: `${base}/teams/workflows/1/invoke?sig=abc` },
  mattermost: { webhook_url: `${base}/mattermost/hooks/abc` },
  google_chat: { webhook_url: `${base}/google_chat/v1/spaces/S/messages?key=k&token=t` },
  telegram: { bot_token: '123456:ABCDEFtelegramtoken', chat_id: '-1001', api_url: `${base}/telegram` },
  matrix: { homeserver_url: `${base}/matrix`, access_token: 'syt_matrixtoken', room_id: '!room:example.org' },
  ntfy: { server_url: `${base}/ntfy`, topic: 'lookout-alerts', access_token: 'tk_ntfytoken' },
  gotify: { server_url: `${base}/gotify`, app_token: 'AgotifyAppToken' },
  pushover: {
    user_key: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
    app_token: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    api_url: `${base}/pushover`,
  },
  pagerduty: { routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF', api_url: `${base}/pagerduty` },
  opsgenie: { api_key: 'opsgenie-api-key-1234', api_url: `${base}/opsgenie` },
  twilio_sms: {
    account_sid: `AC${'0f'.repeat(16)}`,
    auth_token: 'twilioauthtoken',
    from: '+15550001111',
    to: ['+15552223333'],
    api_url: `${base}/twilio_sms`,
  },
});

/** Which kind a request to the shared receiver was for: the first path segment. */
export const kindOfPath = (path: string) => path.split('/')[1] ?? '';

/** How each service answers a request it accepts (status and body, as its docs show). */
export const acceptedAnswer = (kind: string, json: { dedup_key?: string } | undefined) => {
  switch (kind) {
    case 'discord':
      return { status: 200, body: { id: '1100', type: 0, channel_id: '99' } };
    case 'teams':
      return { status: 202 };
    case 'google_chat':
      return { status: 200, body: { name: 'spaces/S/messages/M1', thread: { name: 'spaces/S/threads/T1' } } };
    case 'telegram':
      return { status: 200, body: { ok: true, result: { message_id: 501, chat: { id: -1001 } } } };
    case 'matrix':
      return { status: 200, body: { event_id: '$e1:example.org' } };
    case 'ntfy':
      return { status: 200, body: { id: 'n1', event: 'message', topic: 'lookout-alerts' } };
    case 'gotify':
      return { status: 200, body: { id: 7, appid: 1 } };
    case 'pushover':
      return { status: 200, body: { status: 1, request: 'r-1' } };
    case 'pagerduty':
      return {
        status: 202,
        body: { status: 'success', message: 'Event processed', dedup_key: json?.dedup_key },
      };
    case 'opsgenie':
      return { status: 202, body: { result: 'Request will be processed', took: 0.1, requestId: 'q-1' } };
    case 'twilio_sms':
      return { status: 201, body: { sid: 'SM1', status: 'queued' } };
    default:
      return { status: 200, body: 'ok' };
  }
};

/**
 * The credential each service expects on a request (from the sample config), or null when it rides
 * in the URL or the body (webhook URLs, Telegram's path, PagerDuty's routing_key, Pushover's token).
 */
export const expectedAuth = (kind: string): { header: string; value: string } | null => {
  const c = sampleConfigs('http://x');
  switch (kind) {
    case 'matrix':
      return { header: 'authorization', value: `Bearer ${c.matrix!.access_token}` };
    case 'ntfy':
      return { header: 'authorization', value: `Bearer ${c.ntfy!.access_token}` };
    case 'gotify':
      return { header: 'x-gotify-key', value: c.gotify!.app_token as string };
    case 'opsgenie':
      return { header: 'authorization', value: `GenieKey ${c.opsgenie!.api_key}` };
    case 'twilio_sms':
      return {
        header: 'authorization',
        value: `Basic ${Buffer.from(`${c.twilio_sms!.account_sid}:${c.twilio_sms!.auth_token}`).toString('base64')}`,
      };
    default:
      return null;
  }
};
