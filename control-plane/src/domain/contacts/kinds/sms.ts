import { z } from 'zod';
import { defineContactKind } from './kind.js';

/** A phone number in E.164, sent through the deployment's Twilio account (channel kind `twilio_sms`). */
export default defineContactKind({
  type: 'sms',
  label: 'SMS',
  body: {
    phone: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form, e.g. +14155550123'),
  },
  form: { phone: { label: 'Phone number', input: 'tel', hint: 'With the country code, e.g. +14155550123.' } },
  response: { phone: z.string() },
  shown: (a) => ({ phone: a.phone }),
  describe: (a) => a.phone,
  destination: (a) => a.phone,
  codeDestination: (a) => `sms:${a.phone}`,
  service: {
    key: 'twilio',
    name: 'Twilio',
    setting: 'LOOKOUT_TWILIO_ACCOUNT_SID, LOOKOUT_TWILIO_AUTH_TOKEN and LOOKOUT_TWILIO_FROM',
  },
  target: (a, { twilio: s }) =>
    s
      ? {
          kind: 'twilio_sms',
          config: {
            account_sid: s.account_sid,
            auth_token: s.auth_token,
            from: s.from,
            to: [a.phone],
            api_url: s.api_url,
          },
        }
      : null,
  operatorAddress: true,
});
