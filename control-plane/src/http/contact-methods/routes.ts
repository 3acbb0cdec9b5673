import { newId } from '@lookout/shared';
import { z } from 'zod';
import {
  createContactMethodBody,
  verifyContactMethodBody,
} from '../../domain/contacts/contact-method-body.js';
import type { ContactMethodStore } from '../../domain/contacts/contact-method-store.js';
import {
  availableTypes,
  CONTACT_METHOD_TYPES_AVAILABLE_DOC,
  contactTarget,
  createContactMethod,
  getOwnContactMethod,
} from '../../domain/contacts/contact-methods.js';
import { CONTACT_METHOD_TYPES } from '../../domain/contacts/kinds/index.js';
import {
  forgetCode,
  newVerificationCode,
  verificationMessage,
  verifyContactMethod,
} from '../../domain/contacts/verification-codes.js';
import type { Attempt } from '../../domain/notifications/messages.js';
import { parseOrThrow } from '../../domain/validation.js';
import { idOf } from '../query.js';
import { time } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import {
  contactMethodJson,
  contactMethodKindResponse,
  contactMethodKindsJson,
  contactMethodResponse,
} from './responses.js';

const TAG = 'Contact methods';

/**
 * A service's answer as a non-admin sees it: the status, never the body (in `response` or quoted in
 * `error`), so that a destination a user names cannot be read through Lookout.
 */
const withoutAnswer = (
  r: Pick<Attempt, 'ok' | 'status_code' | 'error' | 'response'>,
): Pick<Attempt, 'error' | 'response'> => ({
  error: r.status_code !== null ? (r.ok ? null : `The service answered HTTP ${r.status_code}.`) : r.error,
  response: null,
});

/**
 * `/users/me/contact-methods`: the caller's own ways to be reached (domain/contacts/contact-methods.ts).
 * Any role, with a session or an API key; nobody sees or changes another user's.
 */
export const contactMethodRoutes = ({
  store,
  clock,
  config,
  dispatcher,
  contactServices: services,
}: RouteDeps<ContactMethodStore>) => {
  return [
    route({
      method: 'get',
      path: '/contact-method-kinds',
      tag: TAG,
      response: z.strictObject({ data: z.array(contactMethodKindResponse) }),
      summary:
        'The kinds of contact method, in the order the form lists them: for each, its `type`, its name, whether it can be added here (its service set up), the JSON Schema of its fields (the same rules POST /users/me/contact-methods checks) and how the form shows each field.',
      async handler() {
        return { data: contactMethodKindsJson(services) };
      },
    }),
    route({
      method: 'get',
      path: '/users/me/contact-methods',
      tag: TAG,
      response: z.strictObject({
        data: z.array(contactMethodResponse),
        next_cursor: z.null(),
        available_types: z.array(z.enum(CONTACT_METHOD_TYPES)),
      }),
      summary: `Your contact methods, oldest first (at most 10, one page), and the types you can add here (${CONTACT_METHOD_TYPES_AVAILABLE_DOC}). Escalation steps that name you reach your account email and every method you have verified.`,
      async handler({ auth }) {
        const methods = await store.listContactMethods(auth.workspace.id, auth.user.id);
        return {
          data: methods.map(contactMethodJson),
          next_cursor: null,
          available_types: availableTypes(services),
        };
      },
    }),
    route({
      method: 'post',
      path: '/users/me/contact-methods',
      tag: TAG,
      response: contactMethodResponse,
      status: 201,
      summary:
        'Add a contact method: `{"type": "email", "address"}`, `{"type": "sms", "phone"}` (E.164), `{"type": "telegram", "chat_id"}` (your chat with the deployment’s bot), `{"type": "ntfy", "topic", "server_url"?, "access_token"?}` or `{"type": "pushover", "user_key"}`. It is not used until verified: send a code, then enter it.',
      body: createContactMethodBody,
      responses: {
        409: 'You have this method already, or 10 methods',
        422: 'Invalid fields, or the type is not set up here',
      },
      async handler({ auth, body }) {
        const m = await createContactMethod(
          store,
          services,
          auth.workspace.id,
          auth.user,
          body,
          clock.now(),
          {
            blockPrivate: !config.notify_allow_private,
          },
        );
        return contactMethodJson(m);
      },
    }),
    route({
      method: 'delete',
      path: '/users/me/contact-methods/{id}',
      tag: TAG,
      response: null,
      status: 204,
      summary: 'Remove one of your contact methods.',
      responses: { 404: 'No such contact method of yours' },
      async handler({ auth, params }) {
        const m = await getOwnContactMethod(store, auth.workspace.id, auth.user.id, idOf(params.id));
        await store.deleteContactMethod(auth.workspace.id, auth.user.id, m.id);
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/users/me/contact-methods/{id}/send-code',
      tag: TAG,
      response: z.strictObject({
        sent: z.boolean(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        response: z
          .string()
          .nullable()
          .describe("The start of the service's answer (its body), to admins only; null for other roles."),
        code_expires_at: time.nullable(),
        contact_method: contactMethodResponse,
      }),
      summary:
        'Send a test message carrying a 6-digit verification code through the method, once (no retries), and report the service’s answer (its status; its body to admins only). The code works for 15 minutes and 5 tries; a new one can be asked for after a minute.',
      responses: {
        404: 'No such contact method of yours',
        429: 'A code was sent less than a minute ago, or too many to this destination, by you or in this workspace (3, 5 and 50 an hour; 10, 20 and 200 a day)',
      },
      async handler({ auth, params }) {
        const m = await getOwnContactMethod(store, auth.workspace.id, auth.user.id, idOf(params.id));
        const target = contactTarget(m, services);
        const { code, method } = await newVerificationCode(store, m, clock.now());
        const deliveryId = `verify:${newId()}`;
        const result = target
          ? await dispatcher.send(
              target,
              verificationMessage(auth.workspace, code, deliveryId, clock.now()),
              deliveryId,
              async () => {},
              { maxAttempts: 1 },
            )
          : {
              ok: false,
              status_code: null,
              error: 'This kind of contact method is not set up on this Lookout any more.',
              response: null,
            };
        // Not sent: the code is forgotten, so another can be asked for at once.
        const now = result.ok ? method : await forgetCode(store, method);
        const shown = auth.user.role === 'admin' ? result : withoutAnswer(result);
        return {
          sent: result.ok,
          status_code: result.status_code,
          error: shown.error,
          response: shown.response ?? null,
          code_expires_at: result.ok ? (method.verification?.expires_at.toISOString() ?? null) : null,
          contact_method: contactMethodJson(now),
        };
      },
    }),
    route({
      method: 'post',
      path: '/users/me/contact-methods/{id}/verify',
      tag: TAG,
      response: contactMethodResponse,
      summary:
        'Enter the code sent through the method (`{"code": "123456"}`): right, it is verified and escalations use it.',
      body: verifyContactMethodBody,
      responses: { 404: 'No such contact method of yours', 422: 'Wrong, expired or used-up code' },
      async handler({ auth, params, body }) {
        const { code } = parseOrThrow(verifyContactMethodBody, body);
        const m = await getOwnContactMethod(store, auth.workspace.id, auth.user.id, idOf(params.id));
        return contactMethodJson(await verifyContactMethod(store, m, code, clock.now()));
      },
    }),
  ];
};
