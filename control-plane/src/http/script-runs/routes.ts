import { AppError } from '@lookout/shared';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import type { ScriptRunStore } from '../../domain/results/script-run-store.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import { scriptRunJson, scriptRunResponse } from './responses.js';

/**
 * What a scripted check's run reported (domain/results/script-runs.ts): its steps, and for browser
 * checks the page's vitals, console errors, failed requests and the screenshot of a failure. Read
 * through the monitor, so another workspace's monitor or result is a 404 like a missing one.
 */
export const scriptRunRoutes = ({ store }: RouteDeps<MonitorStore & ScriptRunStore>) => {
  const load = async (auth: Authed, id: string) => {
    const m = await store.getMonitor(auth.workspace.id, id);
    if (!m) throw new AppError('not_found', 'Monitor not found.');
    return m;
  };
  const noRun = () => new AppError('not_found', 'No script run for this result.');
  return [
    route({
      method: 'get',
      path: '/monitors/{id}/results/{result_id}/script',
      tag: 'Monitors',
      response: scriptRunResponse,
      summary:
        'What a multistep or browser check’s run reported with this result: each step’s timing and error, the failed step, the script’s error line, Web Vitals, console errors and failed requests, and the screenshot of a failure (its URL). 404 when the result has none.',
      async handler({ auth, params }) {
        const m = await load(auth, params.id!);
        const run = await store.getScriptRun(auth.workspace.id, m.id, params.result_id!);
        if (!run) throw noRun();
        return scriptRunJson(run);
      },
    }),
    route({
      method: 'get',
      path: '/monitors/{id}/results/{result_id}/screenshot',
      tag: 'Monitors',
      response: null,
      binary: ['image/png', 'image/jpeg'],
      responses: { 200: 'The screenshot’s bytes, as its content type says' },
      summary:
        'The screenshot a failed browser run took (PNG or JPEG, at most 256 KiB). Kept 7 days, at most the newest 20 per monitor; 404 once gone.',
      async handler({ ctx, auth, params }) {
        const m = await load(auth, params.id!);
        const shot = await store.getScreenshot(auth.workspace.id, m.id, params.result_id!);
        if (!shot) throw new AppError('not_found', 'No screenshot for this result.');
        ctx.type = shot.content_type;
        ctx.set('Cache-Control', 'private, max-age=86400');
        ctx.set('X-Content-Type-Options', 'nosniff');
        // An image, never a document: nothing in it may run or load anything.
        ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
        ctx.set('Content-Disposition', 'inline');
        return shot.data;
      },
    }),
    route({
      method: 'get',
      path: '/monitors/{id}/script-runs/latest',
      tag: 'Monitors',
      response: scriptRunResponse,
      summary:
        'The newest run of a multistep or browser check (as `…/results/{result_id}/script`); 404 when none.',
      async handler({ auth, params }) {
        const m = await load(auth, params.id!);
        const run = await store.latestScriptRun(auth.workspace.id, m.id);
        if (!run) throw noRun();
        return scriptRunJson(run);
      },
    }),
  ];
};
