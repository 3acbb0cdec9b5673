import { randomUUID } from 'node:crypto';
import { hashSecret, silentLogger } from '@lookout/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintPasswordReset } from '../../control-plane/src/domain/access/password-reset.js';
import { createPingBatcher } from '../../control-plane/src/domain/heartbeats/ping-batcher.js';
import { allRoutes } from '../../control-plane/src/http/app.js';
import { auditPlan } from '../../control-plane/src/http/audit-plan.js';
import { sharedServices } from '../../control-plane/src/process/wiring.js';
import { startDnsServer } from '../support/dns-server.js';
import { type Harness, type Reply, type RequestOptions, startHarness } from '../support/harness.js';
import { assert, createCredential } from '../support/soft-authenticator.js';

/*
 * Coverage of the audit log, derived from the route table: every mutating route (POST, PUT, PATCH,
 * DELETE) that the table does not mark `audit.none` is driven here once with a request that succeeds,
 * and must write exactly one entry, with the action its route derives (http/audit-plan.ts). The
 * control plane runs with `audit_strict`: a route whose change no store transaction wrote answers 500,
 * so a store write left outside a transaction fails here. A new mutating route that is neither driven
 * nor listed below fails the last check; so does a listed route that no longer exists.
 */

/** Mutating routes not driven here, each with why. */
const NOT_DRIVEN: Record<string, string> = {
  'post /connected-apps/{id}/revoke':
    'needs an OAuth grant made through the consent flow (mcp-oauth.test.ts)',
  'post /workspace/connected-apps/{id}/revoke':
    'needs an OAuth grant made through the consent flow (mcp-oauth.test.ts)',
  'post /users/me/contact-methods/{id}/verify': 'needs the code from a real mail (contact-methods.test.ts)',
};

let h: Harness;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  dns = await startDnsServer({});
  h = await startHarness({ custom_domain_dns_servers: [dns.address], audit_strict: true });
}, 60_000);
afterAll(async () => {
  await h.close();
  await dns.close();
});

const routes = () =>
  allRoutes({
    store: h.store,
    config: h.config,
    clock: h.clock,
    logger: silentLogger(),
    pings: createPingBatcher(async () => {}, { maxBatch: 1, maxQueued: 1 }),
    ...sharedServices(h.config, h.clock, h.store),
    workspaceUrl: (subdomain) => `http://${subdomain}.localhost:${h.cp.port}`,
  });

describe('the audit log covers every mutating route', () => {
  it('drives each mutating route once to success; each writes exactly one entry, with its action', async () => {
    const plans = new Map(routes().map((r) => [`${r.method} ${r.path}`, auditPlan(r)]));
    const w = await h.workspace('audit-cover', 'business');
    const audited = new Map<string, string>();
    const problems: string[] = [];
    const entries = async () => (await h.store.listAuditEntries(w.workspace.id, {}, { limit: 100 })).data;

    const call = async (
      method: string,
      template: string,
      opts: RequestOptions & { params?: Record<string, string> } = {},
    ): Promise<Reply> => {
      const path = template.replace(/\{(\w+)\}/g, (_m, p: string) => opts.params?.[p] ?? `{${p}}`);
      const before = new Set((await entries()).map((e) => e.id));
      const r = await h.request(method.toUpperCase(), `/api/v1${path}`, {
        host: w.host,
        key: w.adminKey,
        ...opts,
      });
      const name = `${method} ${template}`;
      expect(r.status, `${name}: ${r.text}`).toBeGreaterThanOrEqual(200);
      expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
      const plan = plans.get(name);
      const made = (await entries()).filter((e) => !before.has(e.id));
      // A route that declares no entry (audit.none) writes none.
      if (!plan) {
        if (plans.has(name) && made.length > 0)
          problems.push(`${name}: declares no entry, wrote [${made.map((e) => e.action).join(', ')}]`);
        return r;
      }
      const actions = made.map((e) => e.action);
      if (made.length !== 1 || made[0]!.action !== plan.action)
        problems.push(`${name}: wrote [${actions.join(', ')}], expected one ${plan.action}`);
      // A create names what it made: the id its response shows.
      else if (
        plan.kind === 'create' &&
        !plan.idParam &&
        typeof r.body?.id === 'string' &&
        made[0]!.resource_id !== r.body.id
      )
        problems.push(`${name}: resource_id ${made[0]!.resource_id}, the response's id ${r.body.id}`);
      else audited.set(name, made[0]!.action);
      return r;
    };

    // The web app's session, for the session-only routes; its sign-in is itself an entry.
    const signIn = await call('post', '/session', {
      key: '',
      json: { email: w.admin.email, password: w.password },
    });
    const cookieOf = (r: Reply) =>
      [r.headers['set-cookie'] ?? []]
        .flat()
        .map((c) => c.split(';')[0])
        .join('; ');
    let csrf = signIn.body.csrf_token as string;
    const session = () => ({ key: '', headers: { cookie: cookieOf(signIn), 'x-csrf-token': csrf } });
    const newKey = await call('post', '/api-keys', { ...session(), json: { name: 'ci', expiry: 'none' } });
    await call('post', '/api-keys/legacy/regenerate', session());
    await call('post', '/api-keys/{id}/revoke', { params: { id: newKey.body.id } });

    // Users and invitations.
    const invited = await call('post', '/users', { json: { email: 'new@audit-cover.test', role: 'viewer' } });
    await call('patch', '/users/{id}', { params: { id: invited.body.id }, json: { role: 'member' } });
    const token = new URL(invited.body.invitation_url).hash.replace('#token=', '');
    await call('post', '/invitations/accept', {
      key: '',
      json: { token, password: 'a long enough password' },
    });

    // Monitors.
    const monitor = await call('post', '/monitors/create', {
      json: {
        display_name: 'Site',
        monitor_type: 'http',
        url: 'https://example.com/',
        http_method: 'GET',
        expected_status_code: 200,
      },
    });
    const id = monitor.body.id as string;
    await call('patch', '/monitors/{id}', { params: { id }, json: { display_name: 'Site 2' } });
    await call('post', '/monitors/{id}/check', { params: { id } });
    await call('post', '/monitors/{id}/pause', { params: { id } });
    await call('post', '/monitors/{id}/resume', { params: { id } });
    const batch = {
      monitors: [{ display_name: 'Batch', monitor_type: 'tcp', url: 'example.com', port: 443 }],
    };
    await call('post', '/monitors/batch/check', { json: batch });
    await call('post', '/monitors/batch', { json: batch });
    await call('post', '/monitors/bulk', { json: { ids: [id], action: 'pause' } });

    // Heartbeats and the ping key.
    const hb = await call('post', '/heartbeats', { json: { display_name: 'Nightly', period_seconds: 3600 } });
    const uuid = hb.body.id as string;
    await call('patch', '/heartbeats/{uuid}', { params: { uuid }, json: { display_name: 'Nightly 2' } });
    await call('post', '/ping-key/regenerate');

    // Channels, policies, maintenance, mail.
    const channel = await call('post', '/channels', {
      json: { name: 'Ops', type: 'email', config: { addresses: ['ops@audit-cover.test'] } },
    });
    const channelId = channel.body.id as string;
    await call('patch', '/channels/{id}', { params: { id: channelId }, json: { name: 'Ops 2' } });
    await call('post', '/channels/{id}/test', { params: { id: channelId } });
    const policy = await call('post', '/escalation-policies', {
      json: {
        name: 'Night',
        steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id], notify_channel_ids: [channelId] }],
      },
    });
    const policyId = policy.body.id as string;
    await call('patch', '/escalation-policies/{id}', { params: { id: policyId }, json: { name: 'Night 2' } });
    const now = h.clock.now().getTime();
    const window = await call('post', '/maintenance-windows', {
      json: {
        name: 'Upgrade',
        scope_type: 'workspace',
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
      },
    });
    const windowId = window.body.id as string;
    await call('patch', '/maintenance-windows/{id}', {
      params: { id: windowId },
      json: { name: 'Upgrade 2' },
    });
    await call('post', '/maintenance-windows/{id}/end', { params: { id: windowId } });
    await call('delete', '/maintenance-windows/{id}', { params: { id: windowId } });
    await call('put', '/settings/mail', {
      json: {
        host: 'smtp.audit-cover.test',
        port: 587,
        tls: 'starttls',
        from_address: 'lookout@audit-cover.test',
      },
    });
    await call('post', '/settings/mail/test', { json: {} });
    await call('delete', '/settings/mail');
    // The monthly report by mail (its mail through a real SMTP server: report-schedule.test.ts).
    await call('put', '/reports/schedule', {
      json: { enabled: true, recipient_user_ids: [w.admin.id], scope: { type: 'workspace', id: null } },
    });
    await call('post', '/reports/schedule/send-now');
    await call('put', '/sso', { json: { enforced: false } });

    // Groups and secrets.
    const group = await call('post', '/groups', { json: { name: 'Edge' } });
    const groupId = group.body.id as string;
    await call('patch', '/groups/{id}', { params: { id: groupId }, json: { name: 'Edge 2' } });
    await call('delete', '/groups/{id}', { params: { id: groupId } });
    await call('put', '/secrets/{name}', {
      params: { name: 'PAY_TOKEN' },
      json: { value: 'value-one-0001' },
    });
    await call('put', '/secrets/{name}', {
      params: { name: 'PAY_TOKEN' },
      json: { value: 'value-two-0002' },
    });
    await call('delete', '/secrets/{name}', { params: { name: 'PAY_TOKEN' } });

    // Status pages and their incidents.
    const statusPage = await call('post', '/status-pages', {
      json: {
        name: 'Status',
        slug: 'status',
        components: [{ name: 'API', monitor_id: id }, { name: 'Desk' }],
      },
    });
    const pageId = statusPage.body.id as string;
    await call('patch', '/status-pages/{id}', {
      params: { id: pageId },
      json: { custom_domain: 'status.audit-cover.test' },
    });
    await call('post', '/status-pages/{id}/custom-domain/verify', { params: { id: pageId } });
    const incident = await call('post', '/status-pages/{id}/incidents', {
      params: { id: pageId },
      json: {
        title: 'Errors',
        status: 'investigating',
        message: 'Looking.',
        components: { [statusPage.body.components[0].id]: 'major_outage' },
        published: false,
      },
    });
    const incidentIds = { id: pageId, incident_id: incident.body.id as string };
    await call('post', '/status-pages/{id}/incidents/{incident_id}/publish', { params: incidentIds });
    await call('post', '/status-pages/{id}/incidents/{incident_id}/updates', {
      params: incidentIds,
      json: { status: 'resolved', message: 'Fixed.' },
    });
    await call('patch', '/status-pages/{id}/incidents/{incident_id}', {
      params: incidentIds,
      json: { postmortem: '# Cause' },
    });
    const draft = await call('post', '/status-pages/{id}/incidents', {
      params: { id: pageId },
      json: { title: 'Maybe', message: 'Draft.', published: false },
    });
    await call('post', '/status-pages/{id}/incidents/{incident_id}/discard', {
      params: { id: pageId, incident_id: draft.body.id },
    });
    await call('delete', '/status-pages/{id}/incidents/{incident_id}', { params: incidentIds });
    const subscribed = await h.request('POST', '/status/status/subscribe', {
      host: w.host,
      raw: 'email=reader%40audit-cover.test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(subscribed.status).toBe(200);
    const subscribers = await w.api('GET', `/status-pages/${pageId}/subscribers`);
    await call('delete', '/status-pages/{id}/subscribers/{subscriber_id}', {
      params: { id: pageId, subscriber_id: subscribers.body.data[0].id },
    });
    await call('delete', '/status-pages/{id}', { params: { id: pageId } });

    // Integrations, and the alerts one raises (its inbound endpoint writes no entry: audit.none).
    const integration = await call('post', '/integrations', { json: { name: 'hooks', kind: 'webhook' } });
    const integrationId = integration.body.id as string;
    await call('patch', '/integrations/{integration_id}', {
      params: { integration_id: integrationId },
      json: { name: 'hooks 2' },
    });
    const rotated = await call('post', '/integrations/{integration_id}/rotate-key', {
      params: { integration_id: integrationId },
    });
    for (const dedup of ['disk', 'cpu'])
      await call('post', '/integrations/webhook/events', {
        key: '',
        headers: { 'x-lookout-service-key': rotated.body.service_key },
        json: { title: dedup, dedup_key: dedup },
      });
    const alerts = (await w.api('GET', '/alerts')).body.data as { id: string }[];
    await call('post', '/alerts/acknowledge', { json: { UUIDs: [alerts[0]!.id] } });
    await call('post', '/alerts/resolve', { json: { UUIDs: [alerts[0]!.id, alerts[1]!.id] } });

    // Contact methods.
    const method = await call('post', '/users/me/contact-methods', {
      json: { type: 'ntfy', topic: 'audit', server_url: 'http://127.0.0.1:9', access_token: 'tk_audit' },
    });
    await call('post', '/users/me/contact-methods/{id}/send-code', { params: { id: method.body.id } });
    // The code went to a server that refused it; the fixture stores one this test knows (as its hash).
    const stored = (await h.store.getContactMethod(w.workspace.id, w.admin.id, method.body.id))!;
    await h.store.updateContactMethod({
      ...stored,
      verification: {
        code_hash: hashSecret(`contact-method:${stored.id}:123456`),
        sent_at: h.clock.now(),
        expires_at: new Date(h.clock.now().getTime() + 600_000),
        failed_attempts: 0,
      },
    });
    await call('post', '/users/me/contact-methods/{id}/verify', {
      params: { id: method.body.id },
      json: { code: '123456' },
    });
    await call('delete', '/users/me/contact-methods/{id}', { params: { id: method.body.id } });

    // On call: schedules, overrides, trades, calendar feeds, handoff notices.
    const member = await w.userWithKey('member');
    const daily = (name: string) => ({
      name,
      timezone: 'Europe/Berlin',
      layers: [
        {
          users: [w.admin.id, member.user.id],
          rotation: 'daily',
          handoff: '09:00',
          starts_at: '2026-06-01T09:00:00+02:00',
        },
      ],
    });
    const schedule = await call('post', '/schedules', { json: daily('Primary') });
    const sid = schedule.body.id as string;
    await call('post', '/schedules/preview', { json: daily('Preview') });
    await call('patch', '/schedules/{id}', { params: { id: sid }, json: { name: 'Primary 2' } });
    const override = await call('post', '/schedules/{id}/overrides', {
      params: { id: sid },
      json: { user_id: member.user.id, starts_at: '2026-06-03T00:00:00Z', ends_at: '2026-06-03T06:00:00Z' },
    });
    await call('delete', '/schedules/{id}/overrides/{override_id}', {
      params: { id: sid, override_id: override.body.id },
    });
    // Who is on call on Tuesday morning offers it; the other takes it, then a second is assigned.
    const onCall = (await w.api('GET', `/schedules/${sid}/on-call?at=2026-06-02T09:00:00Z`)).body.user.id;
    const holder = onCall === w.admin.id ? w.adminKey : member.key;
    const other = onCall === w.admin.id ? member.user.id : w.admin.id;
    const otherKey = onCall === w.admin.id ? member.key : w.adminKey;
    const offer = await call('post', '/schedules/{id}/offers', {
      key: holder,
      params: { id: sid },
      json: { starts_at: '2026-06-02T08:00:00Z', ends_at: '2026-06-02T10:00:00Z' },
    });
    await call('post', '/schedules/{id}/offers/{offer_id}/take', {
      key: otherKey,
      params: { id: sid, offer_id: offer.body.id },
    });
    const second = await call('post', '/schedules/{id}/offers', {
      key: holder,
      params: { id: sid },
      json: { starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T13:00:00Z' },
    });
    await call('post', '/schedules/{id}/offers/{offer_id}/assign', {
      params: { id: sid, offer_id: second.body.id },
      json: { user_id: other },
    });
    const third = await call('post', '/schedules/{id}/offers', {
      key: holder,
      params: { id: sid },
      json: { starts_at: '2026-06-02T14:00:00Z', ends_at: '2026-06-02T15:00:00Z' },
    });
    await call('delete', '/schedules/{id}/offers/{offer_id}', {
      key: holder,
      params: { id: sid, offer_id: third.body.id },
    });
    await call('post', '/schedules/{id}/ical-url', { params: { id: sid } });
    await call('delete', '/schedules/{id}/ical-url', { params: { id: sid } });
    await call('post', '/me/ical-url');
    await call('delete', '/me/ical-url');
    await call('put', '/me/handoff-notices', { json: { lead_minutes: 90 } });

    // Two-factor: an authenticator app set up with codes computed from its secret at the harness's
    // clock (moved a step on between uses), the workspace's require_2fa, a passkey added with the
    // software authenticator, a sign-in finished with a code and one with the passkey alone, new
    // recovery codes, then both factors removed (require_2fa off first: the last may not go while on).
    const setup = await call('post', '/me/totp', session());
    const totpNow = () => {
      h.clock.advance(30_000);
      return TOTP.generate({
        secret: Secret.fromBase32(setup.body.secret),
        timestamp: h.clock.now().getTime(),
      });
    };
    const confirmed = await call('post', '/me/totp/confirm', { ...session(), json: { code: totpNow() } });
    await call('put', '/security', { json: { require_2fa: true } });
    const origin = `http://${w.host}:${h.cp.port}`;
    const creation = await call('post', '/me/passkeys/options', session());
    const made = createCredential(creation.body, origin);
    const passkey = await call('post', '/me/passkeys', {
      ...session(),
      json: { name: 'Laptop', credential: made.json },
    });
    // The password step of a user with a factor makes no session (the sign-in is the step after it).
    const pending = await h.request('POST', '/api/v1/session', {
      host: w.host,
      json: { email: w.admin.email, password: w.password },
    });
    expect(pending.body.second_factor_required).toBe(true);
    await call('post', '/session/second-factor', {
      key: '',
      json: { challenge: pending.body.challenge, method: 'totp', code: totpNow() },
    });
    const request = await call('post', '/session/passkey/options', { key: '' });
    await call('post', '/session/passkey', {
      key: '',
      json: {
        challenge: request.body.challenge,
        credential: assert(made.credential, request.body.challenge, origin),
      },
    });
    const renewed = await call('post', '/me/recovery-codes', {
      ...session(),
      json: { code: confirmed.body.recovery_codes[0] },
    });
    await call('delete', '/me/passkeys/{id}', { ...session(), params: { id: passkey.body.id } });
    await call('put', '/security', { json: { require_2fa: false } });
    await call('delete', '/me/totp', { ...session(), json: { code: renewed.body.recovery_codes[0] } });
    // No secret of a factor reaches the log: the TOTP secret, recovery codes, the passkey's credential.
    const logged = JSON.stringify(await entries());
    const secrets = [
      setup.body.secret,
      ...confirmed.body.recovery_codes,
      ...renewed.body.recovery_codes,
      made.json.response.attestationObject,
      made.json.response.clientDataJSON,
    ] as string[];
    expect(secrets.filter((v) => logged.includes(v))).toEqual([]);
    // A removal read from the list shows the one removed, not the list.
    const removed = (await entries()).find((e) => e.action === 'passkey.delete');
    expect(removed).toMatchObject({ resource_id: passkey.body.id, changes: { name: ['Laptop', null] } });

    // Connected apps: grants an OAuth client holds (as the consent flow stores them; mcp-oauth.test.ts
    // makes them through it), revoked by their user and by an admin.
    const grant = async (clientId: string) => {
      const grantId = randomUUID();
      const base = {
        workspace_id: w.workspace.id,
        grant_id: grantId,
        account_id: w.admin.id,
        client_id: clientId,
        uid: null,
        created_at: h.clock.now(),
        expires_at: new Date(h.clock.now().getTime() + 86_400_000),
        consumed_at: null,
      };
      await h.store.upsertOAuthRecord({
        ...base,
        model: 'Grant',
        key_hash: hashSecret(grantId),
        payload: {},
      });
      await h.store.upsertOAuthRecord({
        ...base,
        model: 'AccessToken',
        key_hash: hashSecret(randomUUID()),
        payload: {},
      });
      return grantId;
    };
    await call('post', '/connected-apps/{id}/revoke', { ...session(), params: { id: await grant('app-1') } });
    await call('post', '/workspace/connected-apps/{id}/revoke', {
      ...session(),
      params: { id: await grant('app-2') },
    });

    // Deletions last.
    await call('delete', '/schedules/{id}', { params: { id: sid } });
    await call('delete', '/users/{id}', { params: { id: invited.body.id } });
    await call('delete', '/integrations/{integration_id}', { params: { integration_id: integrationId } });
    await call('delete', '/heartbeats/{uuid}', { params: { uuid } });
    await call('delete', '/monitors/{id}', { params: { id } });
    await call('delete', '/escalation-policies/{id}', { params: { id: policyId } });
    await call('delete', '/channels/{id}', { params: { id: channelId } });
    const changed = await call('post', '/session/password', {
      ...session(),
      json: { current_password: w.password, new_password: 'another long password' },
    });
    csrf = changed.body.csrf_token;
    await call('delete', '/session', {
      key: '',
      headers: { cookie: cookieOf(changed), 'x-csrf-token': csrf },
    });
    // A password reset link, used (the link itself comes by mail: password-reset.test.ts).
    const resetting = await w.userWithKey('viewer');
    const resetToken = await mintPasswordReset(h.store, resetting.user, h.clock.now());
    await call('post', '/password-reset/confirm', {
      key: '',
      json: { token: resetToken, new_password: 'a reset password' },
    });

    expect(problems).toEqual([]);
    const mutating = [...plans.entries()].filter(([, p]) => p !== null).map(([name]) => name);
    expect(mutating.filter((name) => !audited.has(name) && !(name in NOT_DRIVEN))).toEqual([]);
    expect(Object.keys(NOT_DRIVEN).filter((name) => !plans.get(name))).toEqual([]);
  });
});
