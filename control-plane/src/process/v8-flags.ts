import { setFlagsFromString } from 'node:v8';

/**
 * The control plane's V8 settings, applied by `main.ts` before anything else runs.
 *
 * `--heap-growing-percent=20`: after each full collection V8 lets the old generation grow to 1.2 ×
 * what survived it, not the up to 4 × its own heuristic picks for a process that allocates and
 * collects fast. At 100,000 monitors the control plane keeps ~115 MB live (the monitor catalog, the
 * location states, results on their way to the store). With V8's choice its heap swung between 200 and
 * 520 MB (RSS 640–720 MB); 1.4 × brought that to ~200 MB (docs/benchmarks.md, "History": issue 27's fifth round),
 * and since ingestion promotes a third of what it did (0.9 MB per scavenge, the ninth round) 1.2 ×
 * costs 2–2.5 full collections every 10 s instead of ~1 and keeps the heap at ~180 MB (RSS −12 to
 * −24 MB). A `--heap-growing-percent` on node's command line wins over this one; a
 * `--max-old-space-size` (as deploy/k8s sets) still caps the heap.
 */
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) {
  setFlagsFromString('--heap-growing-percent=20');
}
