import { z } from 'zod';
import { httpUrl } from '../../destinations.js';
import { defineContactKind, hint } from './kind.js';

const topicUrl = (a: { server_url: string; topic: string }) =>
  `${a.server_url.replace(/\/+$/, '')}/${a.topic}`;

/** A topic on an ntfy server the user names (channel kind `ntfy`); the only kind whose address is theirs. */
export default defineContactKind({
  type: 'ntfy',
  label: 'ntfy',
  body: {
    server_url: httpUrl.default('https://ntfy.sh'),
    topic: z.string().regex(/^[-_A-Za-z0-9]{1,64}$/, 'must be 1–64 letters, digits, - or _'),
    access_token: z.string().min(1).max(200).nullable().default(null),
  },
  form: {
    topic: { label: 'ntfy topic', hint: 'Subscribe to it in the ntfy app.' },
    server_url: { label: 'ntfy server', placeholder: 'https://ntfy.sh', hint: 'Leave empty for ntfy.sh.' },
    access_token: { label: 'Access token', input: 'password', hint: 'Only for a protected topic.' },
  },
  response: { server_url: z.string(), topic: z.string(), access_token: z.string().nullable() },
  shown: (a) => ({
    server_url: a.server_url,
    topic: a.topic,
    access_token: a.access_token ? hint(a.access_token) : null,
  }),
  describe: topicUrl,
  destination: topicUrl,
  // The topic with its server's origin.
  codeDestination: (a) => {
    const u = new URL(a.server_url);
    return `ntfy:${u.origin.toLowerCase()}${u.pathname.replace(/\/+$/, '')}/${a.topic}`;
  },
  service: null,
  userUrl: 'server_url',
  target: (a) => ({
    kind: 'ntfy',
    config: {
      server_url: a.server_url,
      topic: a.topic,
      ...(a.access_token ? { access_token: a.access_token } : {}),
    },
  }),
  operatorAddress: false,
});
