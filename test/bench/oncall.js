// npm run bench -- oncall: what the on-call engine (control-plane/src/domain/oncall/) costs a question.
//
// Schedules in Europe/Berlin of 1, 5 and 20 layers (four users each, daily, weekly and custom in turn,
// each masked by two restrictions: weekdays 09:00–17:00 and Saturday 22:00–06:00) that started two
// years ago, with 50 overrides over the month around the questions. Asked at 1,000 instants spread over
// 30 days (each new, so nothing is answered from a previous question):
// 1. who is on call only (`onCallShiftAt`, O(layers + overrides)) and with `until` and `next`
//    (`onCallAt`, which walks the changes after the instant), µs a question;
// 2. `finalShifts` over 14 days, ms a window;
// 3. the baseline in the same run: a naive walk that steps one daily layer shift by shift from its
//    `starts_at` (Temporal's wall-clock `add({ days: 1 })`, as engines that iterate do), against the
//    engine's answer for that same layer alone.
// CPU time (process.cpuUsage), the median of ROUNDS rounds after a warm-up; the box is shared.
import { loadavg } from 'node:os';
import { Temporal } from 'temporal-polyfill';
import { finalShifts, onCallAt, onCallShiftAt } from '../../control-plane/dist/domain/oncall/shifts.js';
import { machine, writeSection } from './report.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DAY = 86_400_000;
const NOW = Date.parse('2026-03-16T10:00:00Z');
const STARTED = new Date(NOW - 730 * DAY);
const ROTATIONS = ['daily', 'weekly', 'custom'];

const layer = (i) => ({
  name: `L${i + 1}`,
  users: [`u${i}a`, `u${i}b`, `u${i}c`, `u${i}d`],
  rotation: ROTATIONS[i % 3],
  shift_seconds: i % 3 === 2 ? 43_200 : null,
  handoff: i % 2 ? '09:00' : '02:30',
  handoff_day: i % 3 === 1 ? 'mon' : null,
  starts_at: STARTED,
  restrictions:
    i === 0
      ? []
      : [
          { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' },
          { days: ['sat'], start: '22:00', end: '06:00' },
        ],
});

const schedule = (layers) => ({
  id: 's',
  workspace_id: 'w',
  name: 'Bench',
  timezone: 'Europe/Berlin',
  layers: Array.from({ length: layers }, (_, i) => layer(i)),
  created_at: STARTED,
  updated_at: STARTED,
});

const OVERRIDES = Array.from({ length: 50 }, (_, i) => ({
  id: `o${i}`,
  workspace_id: 'w',
  schedule_id: 's',
  user_id: `x${i % 7}`,
  starts_at: new Date(NOW - 5 * DAY + i * 14 * 3_600_000),
  ends_at: new Date(NOW - 5 * DAY + i * 14 * 3_600_000 + 6 * 3_600_000),
  created_by: null,
  offer_id: null,
  created_at: new Date(NOW - 30 * DAY + i * 60_000),
}));

const INSTANTS = Array.from(
  { length: 1_000 },
  (_, i) => new Date(NOW + Math.floor((i * 30 * DAY) / 1_000) + i),
);

/** The naive walk: shift by shift from starts_at until the one covering `at`, wall-clock days. */
const naiveDailyUser = (l, timezone, at) => {
  const start = Temporal.Instant.fromEpochMilliseconds(l.starts_at.getTime()).toZonedDateTimeISO(timezone);
  const [h, m] = l.handoff.split(':').map(Number);
  let handoff = start.with({ hour: h, minute: m, second: 0, millisecond: 0 });
  if (Temporal.ZonedDateTime.compare(handoff, start) <= 0) handoff = handoff.add({ days: 1 });
  let k = 0;
  const t = at.getTime();
  while (handoff.epochMilliseconds <= t) {
    handoff = handoff.add({ days: 1 });
    k++;
  }
  return l.users[k % l.users.length];
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU µs per call of `f` over `instants` (passes over them for at least 200 ms a round), the median of ROUNDS rounds after one warm-up. */
const measure = (f, instants = INSTANTS) => {
  const once = () => {
    const c0 = process.cpuUsage();
    let calls = 0;
    let us = 0;
    while (us < 200_000) {
      for (const t of instants) f(t);
      calls += instants.length;
      const c = process.cpuUsage(c0);
      us = c.user + c.system;
    }
    return us / calls;
  };
  once();
  return median(Array.from({ length: ROUNDS }, once));
};

export const run = async () => {
  const load = loadavg()[0].toFixed(1);
  const rows = [];
  // Warm-up: every path once (the zone's offset changes read, the code compiled) before any figure.
  for (const layers of [1, 5, 20]) {
    const s = schedule(layers);
    for (const t of INSTANTS) onCallAt(s, OVERRIDES, t);
  }
  for (const layers of [1, 5, 20]) {
    const s = schedule(layers);
    const shiftOnly = measure((t) => onCallShiftAt(s, OVERRIDES, t));
    const full = measure((t) => onCallAt(s, OVERRIDES, t));
    const windows = INSTANTS.slice(0, 50);
    const window = measure((t) => finalShifts(s, OVERRIDES, t, new Date(t.getTime() + 14 * DAY)), windows);
    const count = finalShifts(s, OVERRIDES, INSTANTS[0], new Date(INSTANTS[0].getTime() + 14 * DAY)).length;
    rows.push({ layers, shiftOnly, full, window, count });
  }
  // Baseline: one daily layer, no restrictions, started two years ago; the engine and the walk must agree.
  const one = schedule(1);
  one.layers[0].rotation = 'daily';
  one.layers[0].handoff = '09:00';
  for (const t of INSTANTS.slice(0, 20)) {
    if (naiveDailyUser(one.layers[0], one.timezone, t) !== onCallShiftAt(one, [], t).user_id)
      throw new Error(`the naive walk and the engine disagree at ${t.toISOString()}`);
  }
  const engine = measure((t) => onCallShiftAt(one, [], t));
  const naive = measure((t) => naiveDailyUser(one.layers[0], one.timezone, t), INSTANTS.slice(0, 50));
  const us = (x) => (x < 100 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US'));
  const table = rows
    .map(
      (r) =>
        `${r.layers} layer${r.layers > 1 ? 's' : ''}: ${us(r.shiftOnly)} µs who only, ${us(r.full)} µs with until and next, ${us(r.window)} µs for 14 days (${r.count} shifts)`,
    )
    .join('; ');
  const section = `### On-call questions (\`npm run bench -- oncall\`)
Run ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${load}; \`test/bench/oncall.js\` (its header: Berlin layers started two years ago, restricted, 50 overrides, 1,000 instants over 30 days, CPU time, medians of ${ROUNDS} rounds of ≥ 200 ms). ${table}. **Baseline in the same run, one daily layer two years old: the engine ${us(engine)} µs a question, a naive shift-by-shift walk from \`starts_at\` ${us(naive)} µs (${Math.round(naive / engine).toLocaleString('en-US')} ×)**, and the walk grows with the layer's age.`;
  process.stdout.write(`${section}\n`);
  writeSection('oncall', section);
};
