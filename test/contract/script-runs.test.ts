/**
 * ScriptRunStore contract (domain/results/script-run-store.ts): scripted checks' runs and screenshots,
 * keyed by their result's id, stored once, kept by age and (screenshots) by count per monitor.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ScriptRun, ScriptScreenshot } from '../../control-plane/src/domain/results/script-run-store.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const run = (
  workspaceId: string,
  monitorId: string,
  s: number,
  over: Partial<ScriptRun> = {},
): ScriptRun => ({
  result_id: `${monitorId}:eu:${at(s).getTime()}`,
  workspace_id: workspaceId,
  monitor_id: monitorId,
  location: 'eu',
  started_at: at(s),
  ok: false,
  steps: [
    { name: 'Sign in', ok: true, duration_ms: 120, error: null, status_code: 200 },
    { name: 'Pay', ok: false, duration_ms: 80, error: 'expected status 200, got 502', status_code: 502 },
  ],
  failed_step: 2,
  error_line: 7,
  web_vitals: { ttfb_ms: 40, lcp_ms: 310, cls: 0.05 },
  console_errors: ['TypeError: x is undefined'],
  failed_requests: ['GET https://shop.test/api 502'],
  screenshot: null,
  ...over,
});

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

const shot = (r: ScriptRun, data = PNG): ScriptScreenshot => ({
  result_id: r.result_id,
  workspace_id: r.workspace_id,
  monitor_id: r.monitor_id,
  taken_at: r.started_at,
  content_type: 'image/png',
  data,
});

const withShot = (r: ScriptRun, size = PNG.length): ScriptRun => ({
  ...r,
  screenshot: { content_type: 'image/png', size },
});

contract('ScriptRunStore', (ctx) => {
  describe('script runs', () => {
    it('a run and its screenshot read back whole, bytes and all; a replay changes nothing', async () => {
      const { store, ws } = ctx();
      const m = randomUUID();
      const a = withShot(run(ws.workspace.id, m, 0));
      const b = run(ws.workspace.id, m, 60, {
        ok: true,
        steps: [],
        failed_step: null,
        error_line: null,
        web_vitals: null,
        console_errors: [],
        failed_requests: [],
      });
      await store.addScriptRuns([a, b], [shot(a)]);
      expect(await store.getScriptRun(ws.workspace.id, m, a.result_id)).toEqual(a);
      expect(await store.getScriptRun(ws.workspace.id, m, b.result_id)).toEqual(b);
      const got = await store.getScreenshot(ws.workspace.id, m, a.result_id);
      expect(got).toEqual(shot(a));
      expect(Buffer.from(got!.data).equals(Buffer.from(PNG))).toBe(true);
      // The same batch again (an agent's replay), with other contents: the first stays, once.
      await store.addScriptRuns(
        [{ ...a, ok: true, steps: [] }, b],
        [shot(a, Uint8Array.from([0xff, 0xd8, 0xff]))],
      );
      expect(await store.getScriptRun(ws.workspace.id, m, a.result_id)).toEqual(a);
      expect((await store.getScreenshot(ws.workspace.id, m, a.result_id))!.data).toEqual(PNG);
      await store.addScriptRuns([], []);
    });

    it('latest is the newest run of the monitor by its start; none for a monitor without runs', async () => {
      const { store, ws } = ctx();
      const m = randomUUID();
      const other = randomUUID();
      await store.addScriptRuns(
        [run(ws.workspace.id, m, 120), run(ws.workspace.id, m, 0), run(ws.workspace.id, other, 500)],
        [],
      );
      expect((await store.latestScriptRun(ws.workspace.id, m))?.started_at).toEqual(at(120));
      await store.addScriptRuns([run(ws.workspace.id, m, 180)], []);
      expect((await store.latestScriptRun(ws.workspace.id, m))?.started_at).toEqual(at(180));
      expect(await store.latestScriptRun(ws.workspace.id, randomUUID())).toBeNull();
    });

    it('another workspace (or another monitor) sees none of them', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const m = randomUUID();
      const a = withShot(run(ws.workspace.id, m, 0));
      await store.addScriptRuns([a], [shot(a)]);
      expect(await store.getScriptRun(other.workspace.id, m, a.result_id)).toBeNull();
      expect(await store.latestScriptRun(other.workspace.id, m)).toBeNull();
      expect(await store.getScreenshot(other.workspace.id, m, a.result_id)).toBeNull();
      expect(await store.getScriptRun(ws.workspace.id, randomUUID(), a.result_id)).toBeNull();
      expect(await store.getScreenshot(ws.workspace.id, randomUUID(), a.result_id)).toBeNull();
    });

    it('prune: runs before the cut, screenshots before theirs, and each monitor’s beyond its newest N', async () => {
      const { store, ws } = ctx();
      const busy = randomUUID();
      const quiet = randomUUID();
      // busy: five failed runs with screenshots at 0..4 days; quiet: one at day 1.
      const day = 86_400;
      const busyRuns = [0, 1, 2, 3, 4].map((d) => withShot(run(ws.workspace.id, busy, d * day)));
      const quietRun = withShot(run(ws.workspace.id, quiet, day));
      await store.addScriptRuns([...busyRuns, quietRun], [...busyRuns.map((r) => shot(r)), shot(quietRun)]);
      // Runs before day 1 go; screenshots before day 2 go; and busy keeps its newest 2 (days 3, 4).
      const gone = await store.pruneScriptRuns(at(day), at(2 * day), 2);
      expect(gone).toBe(1 + 3 + 1);
      expect(await store.getScriptRun(ws.workspace.id, busy, busyRuns[0]!.result_id)).toBeNull();
      for (const d of [1, 2]) {
        const r = busyRuns[d]!;
        // The run stays; its screenshot is gone, and the run says so.
        expect(await store.getScriptRun(ws.workspace.id, busy, r.result_id)).toEqual({
          ...r,
          screenshot: null,
        });
        expect(await store.getScreenshot(ws.workspace.id, busy, r.result_id)).toBeNull();
      }
      for (const d of [3, 4]) {
        const r = busyRuns[d]!;
        expect(await store.getScriptRun(ws.workspace.id, busy, r.result_id)).toEqual(r);
        expect(await store.getScreenshot(ws.workspace.id, busy, r.result_id)).not.toBeNull();
      }
      expect(await store.getScreenshot(ws.workspace.id, quiet, quietRun.result_id)).toBeNull();
      expect(await store.getScriptRun(ws.workspace.id, quiet, quietRun.result_id)).toEqual({
        ...quietRun,
        screenshot: null,
      });
      // Again: nothing left to prune.
      expect(await store.pruneScriptRuns(at(day), at(2 * day), 2)).toBe(0);
      // A tighter count: busy keeps only its newest.
      expect(await store.pruneScriptRuns(at(day), at(2 * day), 1)).toBe(1);
      expect(await store.getScreenshot(ws.workspace.id, busy, busyRuns[4]!.result_id)).not.toBeNull();
    });
  });
});
