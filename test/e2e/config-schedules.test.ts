import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/**
 * On-call schedules in configuration as code (`npx lookout export | plan | apply`, the real CLI against
 * a real control plane with its manual clock): a `schedules` kind whose layers name users by email,
 * and escalation policy steps naming schedules by name (`notify_schedules`), applied after them.
 */
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lookout-config-schedules-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
const cli = (w: Workspace, args: string[]) =>
  runCli(args, { LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`, LOOKOUT_API_KEY: w.adminKey });
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** An export without its first line (the schema's address names the workspace's host). */
const body = (text: string) => text.split('\n').slice(1).join('\n');

const withPeople = async (sub: string) => {
  const w = await h.workspace(sub);
  await w.userWithKey('member', 'alice@oncall.test');
  await w.userWithKey('member', 'bob@oncall.test');
  return w;
};

/** Users by email; a schedule with a weekly layer and a restricted daytime layer; a policy naming it. */
const FILE = `version: 1
schedules:
  - name: Primary
    timezone: Europe/Berlin
    layers:
      - name: Weekly
        users: [alice@oncall.test, bob@oncall.test]
        rotation: weekly
        handoff: "09:00"
        handoff_day: mon
        starts_at: "2026-06-01T09:00:00+02:00"
      - name: Office hours
        users: [bob@oncall.test]
        rotation: daily
        handoff: "09:00"
        starts_at: "2026-06-01T07:00:00Z"
        restrictions:
          - days: [mon, tue, wed, thu, fri]
            start: "09:00"
            end: "17:00"
escalation_policies:
  - name: Page on call
    repeat: 1
    steps:
      - wait_minutes: 0
        notify_schedules: [Primary]
      - wait_minutes: 10
        notify_users: [alice@oncall.test]
`;

describe('schedules in configuration as code', () => {
  it('apply creates the schedule before the policy naming it; export writes emails and names and round-trips; a second plan changes nothing', async () => {
    const w = await withPeople('cacs-source');
    const path = file('oncall.yaml', FILE);
    const plan = await cli(w, ['plan', '-f', path]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ schedule "Primary" (create)');
    expect(plan.stdout).toContain('+ escalation policy "Page on call" (create)');
    const applied = await cli(w, ['apply', '-f', path]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.indexOf('created schedule "Primary"')).toBeLessThan(
      applied.stdout.indexOf('created escalation policy "Page on call"'),
    );

    // The API holds ids: the users' and the schedule's.
    const users = new Map<string, string>(
      (await w.api('GET', '/users?limit=100')).body.data.map((u: { id: string; email: string }) => [
        u.email,
        u.id,
      ]),
    );
    const schedule = (await w.api('GET', '/schedules')).body.data.find(
      (s: { name: string }) => s.name === 'Primary',
    );
    expect(schedule).toMatchObject({
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Weekly',
          users: [users.get('alice@oncall.test'), users.get('bob@oncall.test')],
          rotation: 'weekly',
          handoff_day: 'mon',
          starts_at: '2026-06-01T07:00:00.000Z',
        },
        { name: 'Office hours', users: [users.get('bob@oncall.test')], rotation: 'daily' },
      ],
    });
    const policy = (await w.api('GET', '/escalation-policies')).body.data.find(
      (p: { name: string }) => p.name === 'Page on call',
    );
    expect(policy.steps[0].notify_schedule_ids).toEqual([schedule.id]);
    // Who is on call follows from the applied file (the harness clock: Monday 1 June 2026, 12:00 UTC).
    const now = (await w.api('GET', `/schedules/${schedule.id}/on-call`)).body;
    expect(now.user.email).toBe('bob@oncall.test'); // office hours win over the weekly layer
    const evening = (await w.api('GET', `/schedules/${schedule.id}/on-call?at=2026-06-01T18:00:00Z`)).body;
    expect(evening.user.email).toBe('alice@oncall.test');

    const again = await cli(w, ['plan', '-f', path]);
    expect(again.code, again.stdout).toBe(0);

    const exported = await cli(w, ['export']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = exported.stdout;
    expect(text).toMatch(/schedules:\n {2}- name: Primary\n {4}timezone: Europe\/Berlin\n/);
    expect(text).toContain('- alice@oncall.test');
    expect(text).toMatch(/notify_schedules:\n {10}- Primary\n/);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect((await cli(w, ['plan', '-f', file('export.yaml', text)])).code).toBe(0);

    // Into another workspace with the same people: the same file comes back out.
    const target = await withPeople('cacs-target');
    await target.userWithKey('member', 'admin@cacs-source.test');
    const copied = await cli(target, ['apply', '-f', file('export.yaml', text)]);
    expect(copied.code, copied.stderr).toBe(0);
    expect(body((await cli(target, ['export'])).stdout)).toBe(body(text));
    expect((await cli(target, ['plan', '-f', file('export.yaml', text)])).code).toBe(0);
  });

  it('a changed layer is one update in place; unknown emails and schedules are refused by path; --prune keeps a named schedule', async () => {
    const w = await withPeople('cacs-edit');
    expect((await cli(w, ['apply', '-f', file('edit.yaml', FILE)])).code).toBe(0);
    const before = (await w.api('GET', '/schedules')).body.data[0];

    const edited = FILE.replace('handoff_day: mon', 'handoff_day: fri').replace(
      'users: [alice@oncall.test, bob@oncall.test]',
      'users: [bob@oncall.test, alice@oncall.test]',
    );
    const plan = await cli(w, ['plan', '-f', file('edited.yaml', edited)]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('~ schedule "Primary"');
    expect(plan.stdout).toContain('layers:');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to change, 0 to delete.');
    expect((await cli(w, ['apply', '-f', file('edited.yaml', edited)])).code).toBe(0);
    const after = (await w.api('GET', `/schedules/${before.id}`)).body;
    expect(after.layers[0].handoff_day).toBe('fri');
    expect((await cli(w, ['plan', '-f', file('edited.yaml', edited)])).code).toBe(0);

    const unknown = await cli(w, [
      'plan',
      '-f',
      file(
        'unknown.yaml',
        FILE.replace('users: [bob@oncall.test]', 'users: [bob@oncall.test, carol@oncall.test]').replace(
          'notify_schedules: [Primary]',
          'notify_schedules: [Secondary]',
        ),
      ),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'schedules[0].layers[1].users[1] names no user of the workspace ("carol@oncall.test"; users are named by email)',
    );
    expect(unknown.stderr).toContain(
      'escalation_policies[0].steps[0].notify_schedules[0] names no schedule "Secondary" in the file or the workspace',
    );
    expect((await w.api('GET', '/schedules')).body.data).toHaveLength(1);

    const noSchedule = FILE.replace(/schedules:\n(?: {2,}.*\n)+/, 'schedules: []\n');
    const pruned = await cli(w, ['plan', '--prune', '-f', file('prune.yaml', noSchedule)]);
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toContain('names schedule "Primary", which --prune would delete');

    // A file of schedules alone may not prune one a policy of the workspace pages: the API's 409 names it.
    const onlySchedules = await cli(w, [
      'apply',
      '--prune',
      '-f',
      file('only.yaml', 'version: 1\nschedules: []\n'),
    ]);
    expect(onlySchedules.code).toBe(1);
    expect(onlySchedules.stderr).toContain('stopped at delete schedule "Primary" after 0 changes');
    expect(onlySchedules.stderr).toContain('Page on call');
    expect((await w.api('GET', '/schedules')).body.data).toHaveLength(1);
    // Once no policy pages it, the same prune deletes it.
    const paging = (await w.api('GET', '/escalation-policies')).body.data.find(
      (p: { name: string }) => p.name === 'Page on call',
    );
    expect((await w.api('DELETE', `/escalation-policies/${paging.id}`)).status).toBe(204);
    const prunedNow = await cli(w, [
      'apply',
      '--prune',
      '-f',
      file('only.yaml', 'version: 1\nschedules: []\n'),
    ]);
    expect(prunedNow.code, prunedNow.stderr).toBe(0);
    expect(prunedNow.stdout).toContain('deleted schedule "Primary"');
    expect((await w.api('GET', '/schedules')).body.data).toEqual([]);

    // Only admins list users: a member's key cannot check the emails, and says so by path.
    const member = await w.userWithKey('member');
    const asMember = await runCli(['plan', '-f', file('edit.yaml', FILE)], {
      LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`,
      LOOKOUT_API_KEY: member.key,
    });
    expect(asMember.code).toBe(1);
    expect(asMember.stderr).toMatch(
      /schedules\[0\]\.layers\[0\]\.users\[0\] cannot be checked: the API refuses to list users to this key/,
    );
  });
});
