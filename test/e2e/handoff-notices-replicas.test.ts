import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@lookout/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { touchingHandoffCursors } from '../../control-plane/src/domain/oncall/handoff-notices.js';
import { createUser, createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type ClockedControlPlane, startClockedControlPlane } from '../support/clocked-control-plane.js';
import { jobPassed } from '../support/job-passes.js';
import { exited } from '../support/processes.js';
import { startSmtp } from '../support/receivers.js';

/**
 * Handoff notices across real OS processes on one SQLite file, each with a clock the test moves
 * (test/support/control-plane-child.js): two replicas passing at the lead time and at the start send
 * each notice once, and a replica started again afterwards sends none of them again.
 */
const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'lookout-handoff-'));
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('handoff notices on two replicas', () => {
  it('each notice is sent once, whichever replica passes first, and not again after a restart', async () => {
    const smtp = await startSmtp();
    const store = createSqliteStore({ path: join(dir, 'lookout.db') });
    await store.init();
    const { workspace } = await createWorkspace(
      store,
      loadConfig({}, {}).plans,
      { subdomain: 'handoff-two', admin_email: 'admin@handoff-two.test', plan: 'team' },
      new Date(T0),
    );
    const ana = (
      await createUser(store, workspace, { email: 'ana@handoff-two.test', role: 'member' }, new Date(T0))
    ).user;
    const id = newId();
    // ana from Monday 06:00 UTC, daily.
    await touchingHandoffCursors(store, () => new Date(T0)).insertSchedule(
      {
        id,
        workspace_id: workspace.id,
        name: 'Primary',
        timezone: 'UTC',
        layers: [
          {
            name: 'Daily',
            users: [ana.id],
            rotation: 'daily',
            shift_seconds: null,
            handoff: '06:00',
            handoff_day: null,
            starts_at: new Date(T0 + 6 * HOUR),
            restrictions: [],
          },
        ],
        created_at: new Date(T0),
        updated_at: new Date(T0),
      },
      {
        id: newId(),
        workspace_id: workspace.id,
        schedule_id: id,
        at: new Date(T0),
        actor_id: null,
        action: 'created',
        detail: 'created',
      },
      { maxSchedules: 200 },
    );
    await store.close();

    const env = {
      LOOKOUT_ESCALATION_POLL_MS: '20',
      LOOKOUT_SMTP_HOST: '127.0.0.1',
      LOOKOUT_SMTP_PORT: String(smtp.port),
      LOOKOUT_SMTP_FROM: 'Lookout <alerts@lookout.test>',
    };
    const start = () => startClockedControlPlane({ data: dir, clockStart: T0, children, env });
    const both: ClockedControlPlane[] = [await start(), await start()];
    const passAt = async (ms: number, replicas: ClockedControlPlane[]) => {
      await Promise.all(replicas.map((r) => r.setClock(ms)));
      for (const r of replicas) await jobPassed(`http://127.0.0.1:${r.port}`, 'handoff-notices', ms);
      for (const r of replicas) await jobPassed(`http://127.0.0.1:${r.port}`, 'handoff-notices', ms);
    };
    const subjects = () => smtp.mails.map((m) => `${m.rcpt.join(',')} ${m.subject}`);

    await passAt(T0 + 5 * HOUR, both);
    await passAt(T0 + 5.5 * HOUR, both);
    await passAt(T0 + 6 * HOUR, both);
    await passAt(T0 + 6.1 * HOUR, both);
    const once = [
      'ana@handoff-two.test [Lookout handoff-two] On call in Primary from Mon 1 Jun 06:00 (UTC)',
      'ana@handoff-two.test [Lookout handoff-two] You are on call in Primary now',
    ];
    expect(subjects()).toEqual(once);

    // Both stop; one starts again at the same time: what was sent is not sent again.
    for (const r of both) {
      r.child.kill('SIGKILL');
      await exited(r.child);
    }
    const again = await start();
    await passAt(T0 + 6.1 * HOUR, [again]);
    await passAt(T0 + 6.2 * HOUR, [again]);
    expect(subjects()).toEqual(once);
    await smtp.close();
  });
});
