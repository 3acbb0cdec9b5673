import { setFlagsFromString } from 'node:v8';

/**
 * The control plane's V8 settings, applied by `main.ts` before anything else runs.
 *
 * `--heap-growing-percent=40`: after each full collection V8 lets the old generation grow to 1.4 ×
 * what survived it, not the up to 4 × its own heuristic picks for a process that allocates and
 * collects fast. The control plane keeps ~150 MB live at 100,000 monitors (the monitor catalog, the
 * location states, results on their way to the store) and promotes ~2.5 MB per scavenge; with V8's
 * choice its heap swung between 200 and 520 MB and RSS reached 640–720 MB, with this one 220–240 MB
 * and ~400 MB, at the same CPU per check (docs/benchmarks.md, issue 27's fifth round). A
 * `--heap-growing-percent` on node's command line wins over this one; a `--max-old-space-size` (as
 * deploy/k8s sets) still caps the heap.
 */
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) {
  setFlagsFromString('--heap-growing-percent=40');
}
