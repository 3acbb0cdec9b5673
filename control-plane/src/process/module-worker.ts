import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running one of this package's modules, named by the URL of its compiled `.js`
 * (`new URL('./x-worker.js', import.meta.url)`). Built code (dist: `npm start`, the images, every
 * control plane a test starts as a process) runs that file. Code running from its TypeScript sources
 * (vitest imports `src/`) has only the `.ts` beside it: that one is started through
 * `source-worker.mjs`, which loads it with tsx (a dev dependency; node 20 applies no `--import`
 * loader to a worker's entry module).
 */
export const startModuleWorker = (compiled: URL, options: WorkerOptions = {}): Worker => {
  if (!import.meta.url.endsWith('.ts')) return new Worker(compiled, options);
  const source = compiled.href.replace(/\.js$/, '.ts');
  return new Worker(new URL('./source-worker.mjs', import.meta.url), {
    ...options,
    argv: [source, ...(options.argv ?? [])],
  });
};
