/**
 * The heartbeat rules (control-plane/src/domain/heartbeats/heartbeat-rules.ts) hold each adapter's fast path to
 * them: generated sequences of pings (success, start, fail, exit statuses, run ids, client times old,
 * equal, before the heartbeat existed), manual resolves, edits and deadline steps under a moving
 * ManualClock run through the TypeScript rules and through a real store (SQLite always, with its
 * worker-thread ping writer; MongoDB when LOOKOUT_MONGODB_URI is set, skipped without it), and the heartbeats are compared
 * after every step. Seeded, so a failure names the seed and step that reproduce it.
 */
import { randomUUID } from 'node:crypto';
import { ManualClock } from '@lookout/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkHeartbeatDeadlines } from '../../control-plane/src/domain/heartbeats/heartbeat-deadlines.js';
import {
  afterEdit,
  afterStep,
  evaluateHeartbeat,
  pingTouches,
  rearmHeartbeat,
  touchPing,
} from '../../control-plane/src/domain/heartbeats/heartbeat-rules.js';
import type { Heartbeat, Ping } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { fixtures } from './fixtures.js';
import { adapters, describeOn } from './stores.js';

const SEQUENCES = 300;
const STEPS = 14;

/** mulberry32: a small seeded PRNG, so every sequence can be replayed from its seed. */
const prng = (seed: number) => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, int, pick };
};
type Rng = ReturnType<typeof prng>;

/** The heartbeat as compared: alert ids are random per side, so only whether one is held counts. */
const comparable = (h: Heartbeat) => ({ ...h, alert_id: h.alert_id ? 'held' : null });

/** A client-supplied ping time: now, a little before, equal to the last ping, older, or before creation. */
const pingTime = (r: Rng, h: Heartbeat, now: number): number => {
  const last = h.last_ping_at?.getTime() ?? null;
  switch (r.int(0, 5)) {
    case 0:
      return last ?? now;
    case 1:
      return last === null ? now : last - r.int(1, 120_000);
    case 2:
      return h.created_at.getTime() - r.int(1, 86_400_000);
    case 3:
      return now - r.int(0, h.period_seconds * 1000);
    default:
      return now;
  }
};

const makePing = (r: Rng, h: Heartbeat, now: number): Ping => {
  const exit = r.next() < 0.25 ? r.pick([0, 0, 1, 2, 137]) : null;
  const kind: Ping['kind'] =
    exit !== null ? (exit === 0 ? 'success' : 'fail') : r.pick(['success', 'success', 'start', 'fail']);
  return {
    id: randomUUID(),
    heartbeat_id: h.id,
    workspace_id: h.workspace_id,
    kind,
    at: new Date(pingTime(r, h, now)),
    received_at: new Date(now),
    source: null,
    rid: r.pick([null, null, 'r1', 'r2']),
    exit_status: exit,
    body: null,
  };
};

/** A period heartbeat half the time, else a cron schedule in one of two zones. */
const schedule = (r: Rng): Pick<Heartbeat, 'schedule' | 'timezone'> =>
  r.next() < 0.5
    ? { schedule: null, timezone: 'UTC' }
    : {
        schedule: r.pick(['*/5 * * * *', '0 * * * *', '30 2 * * 1-5']),
        timezone: r.pick(['UTC', 'Europe/Berlin']),
      };

for (const a of adapters) {
  const { name, open } = a;
  describeOn(a, `heartbeat rules against the ${name} adapter`, () => {
    let store: Store;
    let ws: ReturnType<typeof fixtures.workspace>;
    beforeAll(async () => {
      store = await open();
      await store.init();
      ws = fixtures.workspace();
      await store.createWorkspace(ws);
    });
    afterAll(async () => {
      await store.close();
    });

    it(`agree after every step of ${SEQUENCES} generated sequences`, { timeout: 120_000 }, async () => {
      const by = { type: 'user' as const, user_id: ws.admin.id, api_key_id: null };
      for (let seed = 1; seed <= SEQUENCES; seed++) {
        const r = prng(seed);
        const clock = new ManualClock(Date.UTC(2026, 2, 1) + seed * 1_000_000_000);
        let model = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
          period_seconds: r.pick([60, 600, 3600]),
          // Cron heartbeats too: their pings leave the deadline to the job (touchPing).
          ...schedule(r),
          grace_seconds: r.pick([30, 60, 300]),
          created_at: clock.now(),
          updated_at: clock.now(),
        });
        await store.insertHeartbeat(model);
        const trail: string[] = [];
        for (let step = 0; step < STEPS; step++) {
          const now = clock.now().getTime();
          const roll = r.next();
          if (roll < 0.45) {
            const batch = Array.from({ length: r.int(1, 3) }, () => makePing(r, model, now));
            trail.push(
              `pings ${batch.map((p) => `${p.kind}@${p.at.getTime() - now}${p.rid ? `/${p.rid}` : ''}`)}`,
            );
            await store.recordPings(batch);
            for (const t of pingTouches(batch)) model = touchPing(model, t) ?? model;
          } else if (roll < 0.8) {
            // Move the clock: a little, to the deadline exactly, or far past it; then one pass of the job.
            const due = model.due_at?.getTime();
            const move = r.pick(['small', 'due', 'far'] as const);
            clock.set(
              move === 'due' && due !== undefined && due > now
                ? due
                : now +
                    (move === 'far'
                      ? r.int(1, 3) * (model.period_seconds + model.grace_seconds) * 1000
                      : r.int(0, 90_000)),
            );
            const at = clock.now();
            trail.push(`job at +${at.getTime() - now}`);
            await checkHeartbeatDeadlines(store, at);
            if (model.due_at && model.due_at <= at) {
              const v = evaluateHeartbeat(model, at);
              model = afterStep(
                model,
                {
                  next: { state: v.state, due_at: v.due_at },
                  at,
                  ...(v.resolve ? { resolve: { type: 'system' } } : {}),
                },
                v.raise ? 'raised' : null,
              );
            }
          } else if (roll < 0.92) {
            const real = (await store.findHeartbeat(model.id))!;
            trail.push(`manual resolve${real.alert_id ? '' : ' (no alert)'}`);
            if (real.alert_id) {
              await store.resolveAlert(ws.workspace.id, real.alert_id, by, clock.now());
              model = rearmHeartbeat(model, clock.now());
            }
          } else {
            const next: Heartbeat = {
              ...model,
              paused: r.next() < 0.5 ? !model.paused : model.paused,
              period_seconds: r.pick([60, 600, 3600]),
              ...schedule(r),
              version: model.version + 1,
              updated_at: clock.now(),
            };
            trail.push(`edit paused=${next.paused} period=${next.period_seconds} schedule=${next.schedule}`);
            expect(await store.updateHeartbeat(next, model.version)).toBe('updated');
            model = afterEdit(model, next);
          }
          const real = (await store.findHeartbeat(model.id))!;
          expect(comparable(real), `seed ${seed}, step ${step}: ${trail.join('; ')}`).toEqual(
            comparable(model),
          );
          if (real.alert_id) {
            // The alert a heartbeat holds is its open one.
            expect((await store.getAlert(ws.workspace.id, real.alert_id))?.status).not.toBe('resolved');
          }
        }
        await store.deleteHeartbeat(ws.workspace.id, model.id);
      }
    });
  });
}
