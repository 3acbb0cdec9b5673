import { setFlagsFromString } from 'node:v8';

/**
 * The agent process's V8 settings, applied by `main.ts` before anything else runs.
 *
 * `--no-allocation-site-pretenuring`: V8 moves an allocation site's objects straight to old space
 * once most of them outlive a young-generation collection. An agent trips that whenever its event
 * loop stalls with checks in flight (applying 100,000 assignments, a full collection): node:http's
 * sockets and requests, and the check's own objects, are then born old for the rest of the process,
 * and what they point to survives two scavenges and is promoted too. At 100,000 monitors every 60 s
 * that promoted ~2.2 MB per scavenge (~11 MB/s of garbage for the full collector) and cost 7–9 ms
 * per scavenge; without pretenuring, ~1.1 MB and 5–7 ms, and 15 % less CPU per check (docs/benchmarks.md,
 * "History": issue 27's fourth round). Checks are short-lived by nature, so there is nothing to pretenure.
 *
 * `--heap-growing-percent=40`: after each full collection V8 lets the old generation grow to 1.4 ×
 * what survived it, not the up to 4 × its own heuristic picks for a process that allocates fast and
 * collects fast (an agent's case: ~70 MB live at 100,000 monitors, ~5 MB/s promoted). At that size
 * the agent's RSS was 323 MB with V8's choice and 190–193 MB with this, for more full collections
 * (3 against 0.5 per 10 s) and no measurable CPU per check (docs/benchmarks.md, "History":
 * issue 27's fifth round). A `--heap-growing-percent` on node's command line wins over this one.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) {
  setFlagsFromString('--heap-growing-percent=40');
}
