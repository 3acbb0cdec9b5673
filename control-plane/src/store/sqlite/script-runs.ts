import type { ScriptRun, ScriptRunStore, ScriptScreenshot } from '../../domain/results/script-run-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, runWith, scriptRuns, scriptScreenshots } from './tables.js';

/**
 * Script runs and their screenshots in SQLite (`script_runs`, `script_screenshots`, migration 43),
 * keyed by the result's id: a replayed batch's rows are ignored (INSERT OR IGNORE), so each is stored
 * once. A run reads its screenshot's presence from the screenshots table, so a screenshot pruned
 * before its run shows as none.
 */
export const sqliteScriptRuns = ({ st, one, immediate }: SqliteContext): ScriptRunStore => {
  const withShot = (run: ScriptRun | null): ScriptRun | null => {
    if (!run?.screenshot) return run;
    const kept = st('SELECT 1 FROM script_screenshots WHERE result_id = ?').get(run.result_id);
    return kept ? run : { ...run, screenshot: null };
  };
  return {
    async addScriptRuns(runs, screenshots) {
      if (runs.length === 0 && screenshots.length === 0) return;
      const addRun = st(insertSql(scriptRuns, [], 'positional').replace('INSERT', 'INSERT OR IGNORE'));
      const addShot = st(
        insertSql(scriptScreenshots, [], 'positional').replace('INSERT', 'INSERT OR IGNORE'),
      );
      immediate(() => {
        for (const r of runs) runWith(scriptRuns, addRun, r);
        for (const s of screenshots) runWith(scriptScreenshots, addShot, s);
      });
    },
    async getScriptRun(workspaceId, monitorId, resultId) {
      return withShot(
        one<ScriptRun>(
          scriptRuns,
          'SELECT * FROM script_runs WHERE result_id = ? AND workspace_id = ? AND monitor_id = ?',
          resultId,
          workspaceId,
          monitorId,
        ),
      );
    },
    async latestScriptRun(workspaceId, monitorId) {
      return withShot(
        one<ScriptRun>(
          scriptRuns,
          `SELECT * FROM script_runs WHERE workspace_id = ? AND monitor_id = ?
           ORDER BY started_at DESC, result_id DESC LIMIT 1`,
          workspaceId,
          monitorId,
        ),
      );
    },
    async getScreenshot(workspaceId, monitorId, resultId) {
      return one<ScriptScreenshot>(
        scriptScreenshots,
        'SELECT * FROM script_screenshots WHERE result_id = ? AND workspace_id = ? AND monitor_id = ?',
        resultId,
        workspaceId,
        monitorId,
      );
    },
    async pruneScriptRuns(before, screenshotsBefore, keepPerMonitor) {
      // Each statement in slices of PRUNE_SLICE rows, each its own short transaction: the file's
      // write lock is never held long.
      let total = 0;
      const slices = (sql: string, params: Record<string, number>) => {
        for (let i = 0; i < MAX_SLICES; i++) {
          const n = immediate(() => st(sql).run({ ...params, n: PRUNE_SLICE }).changes);
          total += n;
          if (n < PRUNE_SLICE) break;
        }
      };
      slices(
        'DELETE FROM script_runs WHERE rowid IN (SELECT rowid FROM script_runs WHERE started_at < @before LIMIT @n)',
        { before: before.getTime() },
      );
      const shotsBefore = Math.max(before.getTime(), screenshotsBefore.getTime());
      slices(
        `DELETE FROM script_screenshots WHERE rowid IN
           (SELECT rowid FROM script_screenshots WHERE taken_at < @before LIMIT @n)`,
        { before: shotsBefore },
      );
      // Beyond each monitor's newest `keepPerMonitor`: numbered per monitor along its index.
      slices(
        `DELETE FROM script_screenshots WHERE rowid IN (SELECT rowid FROM
           (SELECT rowid, row_number() OVER (PARTITION BY monitor_id ORDER BY taken_at DESC, result_id DESC) k
              FROM script_screenshots)
         WHERE k > @keep LIMIT @n)`,
        { keep: keepPerMonitor },
      );
      return total;
    },
  };
};

const PRUNE_SLICE = 1000;
const MAX_SLICES = 100;
