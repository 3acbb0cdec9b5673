import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { MemberStore } from '../../domain/access/member-store.js';
import {
  acceptInvitation,
  acceptInvitationInput,
  changeRoleInput,
  changeUserRole,
  inviteUser,
  inviteUserInput,
  removeUser,
} from '../../domain/access/members.js';
import type { SessionStore } from '../../domain/access/sessions.js';
import type { SignInStore } from '../../domain/access/sign-in-store.js';
import type { ContactMethodStore } from '../../domain/contacts/contact-method-store.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type ApiContext, type RouteDeps, route } from '../route.js';
import { sessionResponse, workspaceJson } from '../session/responses.js';
import { sessionLifetimes, setSessionCookie } from '../session-cookie.js';
import { memberJson, memberResponse, removedUserResponse } from './responses.js';

/**
 * The link an invitee opens. The token rides in the fragment, which browsers never send to a server:
 * it stays out of access logs, proxies and Referer headers; the page posts it to /invitations/accept.
 */
const invitationUrl = (ctx: ApiContext, scheme: string, token: string) =>
  `${scheme}://${ctx.host}/accept-invite#token=${token}`;

/** The sign-in activity of these users, by user id. */
const activityOf = async (store: SignInStore, workspaceId: string, userIds: string[]) =>
  new Map((await store.listSignInActivity(workspaceId, userIds)).map((a) => [a.user_id, a]));

export const userRoutes = ({
  store,
  clock,
  config,
}: RouteDeps<MemberStore & SignInStore & SessionStore & TenancyStore & ContactMethodStore>) => [
  route({
    method: 'get',
    path: '/users/me',
    tag: 'Users',
    response: memberResponse,
    summary:
      'You, as admins see you in the users list: id, email, role, status, created_at, last_sign_in_at, and failed_sign_ins (count of the latest failed web sign-ins in a row, since: the successful sign-in before them, last_at, last_address). Any role, with a session or an API key.',
    async handler({ auth }) {
      const activity = await activityOf(store, auth.workspace.id, [auth.user.id]);
      return memberJson(auth.user, undefined, activity.get(auth.user.id));
    },
  }),
  route({
    method: 'get',
    path: '/people',
    tag: 'Users',
    response: page(z.strictObject({ id: z.string(), email: z.string() })),
    summary:
      'The people of this workspace as id and email only, newest first and paged (any role): whom a schedule layer, an override or a policy step may name. Roles, sign-in activity and invitations stay on `GET /users` (admins).',
    role: 'viewer',
    query: z.strictObject(pageQuery),
    async handler({ auth, query }) {
      const page = await store.listUsers(auth.workspace.id, query);
      return { data: page.data.map((u) => ({ id: u.id, email: u.email })), next_cursor: page.next_cursor };
    },
  }),
  route({
    method: 'get',
    path: '/users',
    tag: 'Users',
    response: page(memberResponse),
    summary:
      'The users of this workspace (admins), newest first and paged: id (for escalation policy steps), email, role, status (`active`, or `invited` until they set a password, with invitation_expires_at), created_at, last_sign_in_at, and failed_sign_ins (count of the latest failed web sign-ins in a row, since: the successful sign-in before them, last_at, last_address).',
    role: 'admin',
    query: z.strictObject(pageQuery),
    async handler({ auth, query }) {
      const page = await store.listUsers(auth.workspace.id, query);
      const pending = page.data.filter((u) => !u.password_hash).map((u) => u.id);
      const invitations = new Map(
        (await store.listOpenInvitations(auth.workspace.id, pending)).map((i) => [i.user_id, i]),
      );
      const activity = await activityOf(
        store,
        auth.workspace.id,
        page.data.map((u) => u.id),
      );
      return {
        data: page.data.map((u) => memberJson(u, invitations.get(u.id), activity.get(u.id))),
        next_cursor: page.next_cursor,
      };
    },
  }),
  route({
    method: 'post',
    path: '/users',
    tag: 'Users',
    response: memberResponse.extend({ invitation_url: z.string() }),
    summary: `Invite a user by email with a role (admins). Returns the user and a one-time invitation_url, valid 7 days, for them to set a password; it is shown only in this response (no email is sent: pass it on). Inviting an email that has not joined yet gives a new link and replaces the old one.`,
    role: 'admin',
    body: inviteUserInput,
    status: 201,
    responses: {
      201: 'Invited: the user, invitation_url and invitation_expires_at',
      409: 'A user with this email has already joined',
    },
    async handler({ ctx, auth, body }) {
      const r = await inviteUser(store, auth.workspace, auth.user, body, clock.now());
      return {
        ...memberJson(r.user, r.invitation),
        invitation_url: invitationUrl(ctx, config.public_url_scheme, r.token),
      };
    },
  }),
  route({
    method: 'patch',
    path: '/users/{id}',
    tag: 'Users',
    response: memberResponse,
    summary:
      'Change a user’s role (admins). Their sessions and keys act with the new role from their next request. The last admin of the workspace cannot be demoted.',
    role: 'admin',
    body: changeRoleInput,
    responses: { 404: 'No such user in this workspace', 409: 'This is the last admin of the workspace' },
    async handler({ auth, params, body }) {
      const user = await changeUserRole(store, auth.workspace.id, params.id!, body);
      return memberJson(
        user,
        undefined,
        (await activityOf(store, auth.workspace.id, [user.id])).get(user.id),
      );
    },
  }),
  route({
    method: 'delete',
    path: '/users/{id}',
    tag: 'Users',
    response: removedUserResponse,
    summary:
      'Remove a user (admins): in one step their sessions end, their API keys are revoked, any invitation is void and they leave the escalation steps that notify others too (those policies’ updated_at changes). Refused (409) for the last admin of the workspace, and for a user who is the only one some escalation step notifies: the error names those policies and steps (`details`: one per policy, with its id), to change first. The answer names the policies and the on-call schedules they were taken out of; a schedule with `empty_layers` now has layers that cover nobody (its `gaps` show when): fill them.',
    role: 'admin',
    responses: {
      404: 'No such user in this workspace',
      409: 'The last admin of the workspace, or the only one notified by a step of the escalation policies named',
    },
    async handler({ auth, params }) {
      return removeUser(store, auth.workspace.id, params.id!, clock.now());
    },
  }),
  route({
    method: 'post',
    path: '/invitations/accept',
    tag: 'Users',
    response: sessionResponse,
    auth: 'none',
    summary:
      'Accept an invitation: the token from the invitation link and a password of at least 12 characters. Sets the password and signs in (the session cookie, and the CSRF token as for POST /session). A link works once, for 7 days, on its own workspace only.',
    body: acceptInvitationInput,
    status: 201,
    responses: {
      201: 'Joined and signed in',
      404: 'Unknown link, or one of another workspace',
      409: 'The link was used already or has expired',
      422: 'Password too short',
    },
    async handler({ ctx, body }) {
      const ws = ctx.state.workspace;
      if (!ws) throw new AppError('not_found', 'No workspace at this address.');
      const r = await acceptInvitation(store, ws, body, clock.now(), sessionLifetimes(config));
      setSessionCookie(ctx, config, r.token, r.session.expires_at);
      ctx.state.auth = { user: r.user, session: r.session };
      return {
        user: { id: r.user.id, email: r.user.email, role: r.user.role },
        workspace: workspaceJson(ws),
        csrf_token: r.csrfToken,
        expires_at: r.session.expires_at.toISOString(),
      };
    },
  }),
];
