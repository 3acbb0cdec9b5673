import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_KINDS, CONTACT_METHOD_TYPES } from '../../control-plane/src/domain/contacts/kinds/index.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * The personal contact-method kinds are found through their registry (domain/contacts/kinds/): GET
 * /contact-method-kinds lists every registered kind with the fields the web form renders and the
 * JSON Schema of the body the API checks, and says which can be added on this deployment. Every
 * field the endpoint lists is one the API takes, and a body built from the listed fields is taken.
 */
let h: Harness;
beforeAll(async () => {
  // Telegram set up; Twilio and Pushover not.
  h = await startHarness({ telegram_bot_token: '7012345678:AAHk-test_bot_token' });
});
afterAll(() => h?.close());

interface Kind {
  type: string;
  label: string;
  available: boolean;
  body_schema: { properties: Record<string, unknown>; required?: string[] };
  fields: { name: string; label: string; hint: string | null; input: string; placeholder: string | null }[];
}

const SAMPLE: Record<string, string> = {
  address: 'pager@kinds.test',
  phone: '+14155550123',
  chat_id: '123456789',
  topic: 'kinds-topic',
  user_key: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
};

describe('contact method kinds', () => {
  it('lists every registered personal kind, in order, with its form fields, schema and availability here', async () => {
    const w = await h.workspace('cm-kinds');
    const viewer = await w.userWithKey('viewer');
    const me = w.as(viewer.key);
    const r = await me('GET', '/contact-method-kinds');
    expect(r.status).toBe(200);
    const kinds = r.body.data as Kind[];
    expect(kinds.map((k) => k.type)).toEqual([...CONTACT_METHOD_TYPES]);
    expect(kinds.map((k) => k.label)).toEqual(['Email', 'SMS', 'Telegram', 'ntfy', 'Pushover']);
    expect(Object.fromEntries(kinds.map((k) => [k.type, k.available]))).toEqual({
      email: true,
      sms: false,
      telegram: true,
      ntfy: true,
      pushover: false,
    });
    // The list's available types are the same answer.
    expect((await me('GET', '/users/me/contact-methods')).body.available_types).toEqual(
      kinds.filter((k) => k.available).map((k) => k.type),
    );
    for (const k of kinds) {
      expect(k.fields.map((f) => f.name).sort()).toEqual(Object.keys(k.body_schema.properties).sort());
      expect(k.fields.map((f) => f.name).sort()).toEqual(
        Object.keys(CONTACT_KINDS[k.type as 'email'].body).sort(),
      );
      for (const f of k.fields) expect(f.label).not.toBe('');
    }
    const ntfy = kinds.find((k) => k.type === 'ntfy')!;
    expect(ntfy.body_schema.required).toEqual(['topic']);
    expect(ntfy.fields.map((f) => [f.name, f.label, f.input])).toEqual([
      ['topic', 'ntfy topic', 'text'],
      ['server_url', 'ntfy server', 'text'],
      ['access_token', 'Access token', 'password'],
    ]);

    // A body of each available kind's required fields is taken; an unavailable kind is refused.
    for (const k of kinds) {
      const body = Object.fromEntries(
        (k.body_schema.required ?? []).map((f) => [f, SAMPLE[f] ?? 'x']),
      ) as Record<string, string>;
      const added = await me('POST', '/users/me/contact-methods', { json: { type: k.type, ...body } });
      expect([k.type, added.status]).toEqual([k.type, k.available ? 201 : 422]);
      if (!k.available) expect(added.body.error.details[0].field).toBe('type');
    }
  });

  it('needs a signed-in caller', async () => {
    const w = await h.workspace('cm-kinds-anon');
    const r = await h.request('GET', '/api/v1/contact-method-kinds', { host: w.host });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthorized');
  });
});
