import { type Body, ok, type Schemas } from '../../src/api-client/client.js';
import { client } from './api.js';

/** Settings → Notification settings: the signed-in user's own contact methods. */

export type ContactMethod = Schemas['ContactMethod'];
export type ContactMethodType = ContactMethod['type'];
export type NewContactMethod = Body<'/users/me/contact-methods', 'post'>;
export type ContactMethodKind = Schemas['ContactMethodKind'];

const id = (id: string) => ({ params: { path: { id } } });

export const contactsApi = {
  kinds: () => ok(client.GET('/contact-method-kinds')),
  list: () => ok(client.GET('/users/me/contact-methods')),
  add: (body: NewContactMethod) => ok(client.POST('/users/me/contact-methods', { body })),
  remove: (m: string) => ok(client.DELETE('/users/me/contact-methods/{id}', id(m))),
  sendCode: (m: string) => ok(client.POST('/users/me/contact-methods/{id}/send-code', id(m))),
  verify: (m: string, code: string) =>
    ok(client.POST('/users/me/contact-methods/{id}/verify', { ...id(m), body: { code } })),
};
