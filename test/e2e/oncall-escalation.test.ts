import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.js';
import { jobPassed } from '../support/job-passes.js';
import { startRoutingRig } from '../support/routing-rig.js';
import { waitFor } from '../support/wait.js';

/**
 * Escalation to an on-call schedule, end to end on a manual clock: a heartbeat whose policy names a
 * schedule raises alerts at three instants (before a handoff, after it, during an override), and each
 * reaches exactly the on-call person's account email and verified contact method, nobody else's; the
 * timeline says whom and why. A schedule with nobody on call is recorded and the next step fires at
 * once. Handoff notices arrive at lead time and at the start, once each.
 */
let rig: Awaited<ReturnType<typeof startRoutingRig>>;
let h: Harness;
beforeAll(async () => {
  rig = await startRoutingRig();
  ({ h } = rig);
  // Monday 2026-06-01 12:00 UTC (14:00 in Berlin).
  h.clock.set(Date.parse('2026-06-01T12:00:00Z'));
});
afterAll(() => rig.close());

const CM = '/users/me/contact-methods';

/** The code in the newest mail to `to`. */
const codeMailedTo = async (to: string) => {
  const mail = await waitFor(
    async () => rig.smtp.mails.find((m) => m.rcpt.includes(to)),
    (m) => m !== undefined,
    { what: `code mail to ${to}` },
  );
  return /verification code is (\d{6})/.exec(mail!.text ?? '')![1]!;
};

const setup = async (sub: string) => {
  const w = await h.workspace(sub);
  /** A member with a verified email contact method `<name>-phone@…` beside their account email, and an unverified one. */
  const person = async (name: string) => {
    const u = await w.userWithKey('member', `${name}@${sub}.test`);
    const me = w.as(u.key);
    const phone = `${name}-phone@${sub}.test`;
    const id = (await me('POST', CM, { json: { type: 'email', address: phone } })).body.id;
    await me('POST', `${CM}/${id}/send-code`);
    const code = await codeMailedTo(phone);
    expect((await me('POST', `${CM}/${id}/verify`, { json: { code } })).body.verified).toBe(true);
    // A method never verified is never used.
    await me('POST', CM, { json: { type: 'email', address: `${name}-unverified@${sub}.test` } });
    return { ...u, me, phone };
  };
  const schedule = async (name: string, layers: Record<string, unknown>[]) => {
    const r = await w.api('POST', '/schedules', { json: { name, timezone: 'Europe/Berlin', layers } });
    expect(r.status).toBe(201);
    return r.body as { id: string };
  };
  /** An override made by the admin for `userId`. */
  const override = async (s: { id: string }, userId: string, from: string, to: string) => {
    const r = await w.api('POST', `/schedules/${s.id}/overrides`, {
      json: { user_id: userId, starts_at: from, ends_at: to },
    });
    expect(r.status).toBe(201);
  };
  return { w, person, schedule, override };
};

/** Every address that got a mail (from the `from`th on) whose subject has `words`, sorted. */
const reached = (words: string, from = 0) =>
  rig.smtp.mails
    .slice(from)
    .filter((m) => m.subject?.includes(words))
    .flatMap((m) => m.rcpt)
    .sort();

interface Entry {
  type: string;
  at: string;
  step: number;
  text?: string;
  to?: string;
  event?: string;
}

describe('escalation to an on-call schedule', () => {
  it('reaches exactly who is on call at three instants, says why, and moves on at once past nobody', async () => {
    const sub = 'oncall-esc';
    const { w, person, schedule, override } = await setup(sub);
    const ana = await person('ana');
    const bob = await person('bob');
    const cat = await person('cat');
    // Daily at 09:00 Berlin from Monday 09:00 (07:00 UTC): ana, then bob from Tuesday 09:00.
    const primary = await schedule('Primary', [
      {
        name: 'Daily',
        users: [ana.user.id, bob.user.id],
        rotation: 'daily',
        handoff: '09:00',
        starts_at: '2026-06-01T07:00:00Z',
        restrictions: [],
      },
    ]);
    // Covers only Saturdays 00:00–01:00: nobody on call on a Tuesday.
    const nights = await schedule('Nights', [
      {
        name: 'Saturday',
        users: [cat.user.id],
        rotation: 'daily',
        handoff: '00:00',
        starts_at: '2026-06-01T00:00:00Z',
        restrictions: [{ days: ['sat'], start: '00:00', end: '01:00' }],
      },
    ]);
    // cat takes Tuesday 12:00–14:00 Berlin, set by the admin.
    await override(primary, cat.user.id, '2026-06-02T10:00:00Z', '2026-06-02T12:00:00Z');

    const policy = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'on call',
        steps: [
          { wait_minutes: 0, notify_schedule_ids: [nights.id] },
          { wait_minutes: 30, notify_schedule_ids: [primary.id] },
        ],
      },
    });
    expect(policy.status).toBe(201);
    expect(policy.body.steps[1]).toEqual({
      wait_minutes: 30,
      notify_user_ids: [],
      notify_channel_ids: [],
      notify_schedule_ids: [primary.id],
    });
    // Another workspace's schedule is invisible; a step must page someone; at most 10 schedules.
    const other = await h.workspace('oncall-esc-other');
    const theirs = (
      await other.api('POST', '/schedules', {
        json: {
          name: 'Theirs',
          timezone: 'UTC',
          layers: [
            {
              users: [other.admin.id],
              rotation: 'daily',
              handoff: '09:00',
              starts_at: '2026-06-01T00:00:00Z',
            },
          ],
        },
      })
    ).body;
    const bad = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'bad',
        steps: [
          { wait_minutes: 0, notify_schedule_ids: [theirs.id] },
          { wait_minutes: 0, notify_schedule_ids: [] },
          { wait_minutes: 0, notify_schedule_ids: Array.from({ length: 11 }, () => primary.id) },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'steps[2].notify_schedule_ids', message: expect.stringContaining('10') },
    ]);
    const bad2 = await w.api('POST', '/escalation-policies', {
      json: {
        name: 'bad',
        steps: [
          { wait_minutes: 0, notify_schedule_ids: [theirs.id] },
          { wait_minutes: 0, notify_schedule_ids: [] },
        ],
      },
    });
    expect(bad2.body.error.details).toEqual([
      { field: 'steps[0].notify_schedule_ids[0]', message: 'no schedule with this id in the workspace' },
      { field: 'steps[1]', message: 'must notify at least one user, channel or schedule' },
    ]);
    // A schedule a policy pages is not deleted (as a channel a policy notifies is not).
    const del = await w.api('DELETE', `/schedules/${primary.id}`);
    expect(del.status).toBe(409);
    expect(del.body.error.message).toContain('“on call”');

    const hb = (
      await w.api('POST', '/heartbeats', {
        json: {
          display_name: 'nightly backup',
          period_seconds: 30 * 86_400,
          escalation_policy_id: policy.body.id,
        },
      })
    ).body;
    await h.request('GET', `/hb/ping/${hb.id}`);

    /** Raises an alert at `iso`, waits for its escalation to finish; its timeline and whom it mailed. */
    const raiseAt = async (iso: string) => {
      h.clock.set(Date.parse(iso));
      const before = rig.smtp.mails.length;
      await h.request('GET', `/hb/ping/${hb.id}/fail`);
      const alert = await waitFor(
        async () => (await w.api('GET', `/alerts?source_id=${hb.id}&status=open`)).body.data[0],
        (a) => a !== undefined,
        { what: `the alert at ${iso}` },
      );
      // Nobody is on call in Nights, so Primary's step (30 minutes later) fires at once: the clock
      // does not move, yet the escalation finishes.
      const detail = await waitFor(
        async () => (await w.api('GET', `/alerts/${alert.id}`)).body,
        (a) => a.escalation.finished,
        { what: `the escalation of the alert at ${iso}` },
      );
      const timeline = detail.timeline as Entry[];
      const mails = reached('nightly backup', before);
      // Resolved by the next ping: the recovery notice reaches whom the alert reached.
      const sent = rig.smtp.mails.length;
      await h.request('GET', `/hb/ping/${hb.id}`);
      const resolved = await waitFor(
        async () => reached('nightly backup', sent),
        (r) => r.length >= mails.length,
        { what: `the recovery notice of the alert at ${iso}` },
      );
      await waitFor(
        async () => (await w.api('GET', `/alerts/${alert.id}`)).body.timeline as Entry[],
        (t) => t.some((e) => e.type === 'notification' && e.event === 'resolved'),
        { what: 'the recovery notice logged' },
      );
      return { timeline, mails, resolved, created: detail.created_at as string };
    };
    const onCall = (t: Entry[]) => t.filter((e) => e.type === 'on_call').map((e) => [e.step, e.text]);

    // Tuesday 08:30 Berlin, before the handoff: ana.
    const first = await raiseAt('2026-06-02T06:30:00Z');
    expect(first.mails).toEqual([`ana-phone@${sub}.test`, `ana@${sub}.test`]);
    expect(first.resolved).toEqual([`ana-phone@${sub}.test`, `ana@${sub}.test`]);
    expect(onCall(first.timeline)).toEqual([
      [0, 'nobody on call in Nights'],
      [1, `reached ana@${sub}.test — on call in Primary (layer 1, Daily)`],
    ]);
    // The second step went at the instant the alert was raised, not 30 minutes later.
    const step1 = first.timeline.filter((e) => e.type === 'notification' && e.step === 1);
    expect(step1.map((e) => e.to).sort()).toEqual([`ana-phone@${sub}.test`, `ana@${sub}.test`]);
    expect(step1.every((e) => e.at === first.created)).toBe(true);

    // Tuesday 09:30 Berlin, after the handoff: bob.
    const second = await raiseAt('2026-06-02T07:30:00Z');
    expect(second.mails).toEqual([`bob-phone@${sub}.test`, `bob@${sub}.test`]);
    expect(second.resolved).toEqual([`bob-phone@${sub}.test`, `bob@${sub}.test`]);
    expect(onCall(second.timeline)[1]).toEqual([
      1,
      `reached bob@${sub}.test — on call in Primary (layer 1, Daily)`,
    ]);

    // Tuesday 13:00 Berlin, during cat's override.
    const third = await raiseAt('2026-06-02T11:00:00Z');
    expect(third.mails).toEqual([`cat-phone@${sub}.test`, `cat@${sub}.test`]);
    expect(third.resolved).toEqual([`cat-phone@${sub}.test`, `cat@${sub}.test`]);
    expect(onCall(third.timeline)[1]).toEqual([
      1,
      `reached cat@${sub}.test — on call in Primary (override by admin@${sub}.test)`,
    ]);
  });

  it('a last step with nobody on call says so and the escalation ends', async () => {
    const sub = 'oncall-none';
    const { w, person, schedule } = await setup(sub);
    const cat = await person('cat');
    const nights = await schedule('Nights', [
      {
        name: 'Saturday',
        users: [cat.user.id],
        rotation: 'daily',
        handoff: '00:00',
        starts_at: '2026-06-01T00:00:00Z',
        restrictions: [{ days: ['sat'], start: '00:00', end: '01:00' }],
      },
    ]);
    const policy = await w.api('POST', '/escalation-policies', {
      json: { name: 'nights', steps: [{ wait_minutes: 0, notify_schedule_ids: [nights.id] }] },
    });
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: {
          display_name: 'quiet job',
          period_seconds: 30 * 86_400,
          escalation_policy_id: policy.body.id,
        },
      })
    ).body;
    await h.request('GET', `/hb/ping/${hb.id}`);
    await h.request('GET', `/hb/ping/${hb.id}/fail`);
    const alert = await waitFor(
      async () => (await w.api('GET', `/alerts?source_id=${hb.id}`)).body.data[0],
      (a) => a !== undefined,
      { what: 'the alert' },
    );
    const detail = await waitFor(
      async () => (await w.api('GET', `/alerts/${alert.id}`)).body,
      (a) => a.escalation.finished,
      { what: 'the escalation to end' },
    );
    expect(
      (detail.timeline as Entry[]).filter((e) => e.type !== 'raised').map((e) => [e.type, e.text]),
    ).toEqual([
      ['on_call', 'nobody on call in Nights'],
      ['on_call', 'the last step of the last round reached nobody: escalation ends here'],
    ]);
    expect(reached('quiet job')).toEqual([]);
  });
});

describe('handoff notices', () => {
  it('each on-call user hears at their lead time and at the start, exactly once', async () => {
    const sub = 'oncall-handoff';
    // Wednesday 00:00 UTC: ana's next shift starts Wednesday 09:00 Berlin (07:00 UTC), bob's Thursday.
    h.clock.set(Date.parse('2026-06-03T00:00:00Z'));
    const { person, schedule } = await setup(sub);
    const ana = await person('ana');
    const bob = await person('bob');
    await schedule('Support', [
      {
        name: 'Daily',
        users: [ana.user.id, bob.user.id],
        rotation: 'daily',
        handoff: '09:00',
        starts_at: '2026-06-01T07:00:00Z',
        restrictions: [],
      },
    ]);
    expect((await ana.me('GET', '/me/handoff-notices')).body).toEqual({ enabled: true, lead_minutes: 60 });
    const put = await bob.me('PUT', '/me/handoff-notices', { json: { lead_minutes: 120 } });
    expect(put.body).toEqual({ enabled: true, lead_minutes: 120 });

    const notices = () =>
      rig.smtp.mails
        .filter((m) => m.subject?.includes('Support') && m.subject.startsWith(`[Lookout ${sub}]`))
        .map((m) => [m.rcpt.join(','), m.subject, m.text?.trim()]);
    const passAt = async (iso: string) => {
      h.clock.set(Date.parse(iso));
      await jobPassed(h.cp.url, 'handoff-notices', Date.parse(iso));
      // A second pass at the same time: anything claimed twice would show now.
      await jobPassed(h.cp.url, 'handoff-notices', Date.parse(iso));
    };
    const anaBefore = (to: string) => [
      to,
      `[Lookout ${sub}] On call in Support from Wed 3 Jun 09:00 (Europe/Berlin)`,
      'You are on call in Support from Wed 3 Jun 09:00 (Europe/Berlin) until Thu 4 Jun 09:00 (Europe/Berlin).',
    ];
    const anaStart = (to: string) => [
      to,
      `[Lookout ${sub}] You are on call in Support now`,
      'You are on call in Support now, until Thu 4 Jun 09:00 (Europe/Berlin).',
    ];

    await passAt('2026-06-03T05:59:00Z');
    expect(notices()).toEqual([]);
    await passAt('2026-06-03T06:00:00Z');
    expect(notices().sort()).toEqual([anaBefore(`ana-phone@${sub}.test`), anaBefore(ana.user.email)].sort());
    // ana changes her lead: the schedule is worked out again, and what was sent is not sent again.
    expect((await ana.me('PUT', '/me/handoff-notices', { json: { lead_minutes: 90 } })).status).toBe(200);
    await passAt('2026-06-03T06:30:00Z');
    expect(notices()).toHaveLength(2);
    await passAt('2026-06-03T07:00:00Z');
    await passAt('2026-06-03T07:05:00Z');
    expect(notices().sort()).toEqual(
      [
        anaBefore(`ana-phone@${sub}.test`),
        anaBefore(ana.user.email),
        anaStart(`ana-phone@${sub}.test`),
        anaStart(ana.user.email),
      ].sort(),
    );
    // bob's lead is two hours: Thursday 07:00 Berlin (05:00 UTC).
    await passAt('2026-06-04T04:59:00Z');
    expect(notices().filter(([to]) => to?.startsWith('bob'))).toEqual([]);
    await passAt('2026-06-04T05:00:00Z');
    await passAt('2026-06-04T06:00:00Z');
    await passAt('2026-06-04T07:00:00Z');
    await passAt('2026-06-04T08:00:00Z');
    const bobs = notices().filter(([to]) => to?.startsWith('bob'));
    expect(bobs.map(([to, subject]) => `${to} ${subject}`).sort()).toEqual(
      [
        `bob-phone@${sub}.test [Lookout ${sub}] On call in Support from Thu 4 Jun 09:00 (Europe/Berlin)`,
        `bob@${sub}.test [Lookout ${sub}] On call in Support from Thu 4 Jun 09:00 (Europe/Berlin)`,
        `bob-phone@${sub}.test [Lookout ${sub}] You are on call in Support now`,
        `bob@${sub}.test [Lookout ${sub}] You are on call in Support now`,
      ].sort(),
    );
    // ana's shift ending gives her nothing new.
    expect(notices().filter(([to]) => to?.startsWith('ana')).length).toBe(4);
  });
});

describe('handoff notice settings', () => {
  it('are each user’s own (a viewer too, through their key); bad values name every bad field, nothing written', async () => {
    const { w } = await setup('oncall-settings');
    const viewer = await w.userWithKey('viewer');
    const member = await w.userWithKey('member');
    const mine = w.as(viewer.key);
    expect((await mine('GET', '/me/handoff-notices')).body).toEqual({ enabled: true, lead_minutes: 60 });
    const off = await mine('PUT', '/me/handoff-notices', { json: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ enabled: false, lead_minutes: 60 });
    // Someone else's are untouched.
    expect((await w.as(member.key)('GET', '/me/handoff-notices')).body).toEqual({
      enabled: true,
      lead_minutes: 60,
    });
    const bad = await mine('PUT', '/me/handoff-notices', {
      json: { enabled: 'yes', lead_minutes: 4, user_id: member.user.id },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['enabled', 'lead_minutes', 'user_id'].sort(),
    );
    const tooLong = await mine('PUT', '/me/handoff-notices', { json: { lead_minutes: 10_081 } });
    expect(tooLong.body.error.details).toEqual([
      { field: 'lead_minutes', message: expect.stringContaining('10080') },
    ]);
    expect((await mine('PUT', '/me/handoff-notices', { json: { lead_minutes: 1.5 } })).status).toBe(422);
    expect((await mine('GET', '/me/handoff-notices')).body).toEqual({ enabled: false, lead_minutes: 60 });
    expect((await h.request('GET', '/api/v1/me/handoff-notices', { host: w.host })).status).toBe(401);
  });
});
