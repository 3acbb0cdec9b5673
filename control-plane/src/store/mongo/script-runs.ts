import { Binary, type Document } from 'mongodb';
import type { ScriptRun, ScriptRunStore, ScriptScreenshot } from '../../domain/results/script-run-store.js';
import { deleteSome, type IndexDecl, type MongoContext } from './db.js';

/**
 * Script runs and their screenshots in MongoDB (`script_runs`, `script_screenshots`), `_id` the
 * result's id. A batch is one unordered bulkWrite per collection of upserts that only `$setOnInsert`:
 * a document whose `_id` exists (a replayed batch) is left as it is, and no duplicate-key error is
 * raised for it (the server retries an upsert that races on `_id`). The image is stored as BSON Binary
 * (the driver writes a Uint8Array so and reads a `Binary` back). Not in one transaction with the
 * results: each run is keyed by its result, so a replay fills in whatever a failed write left out.
 */
export const scriptRunIndexes: IndexDecl[] = [
  { on: 'scriptRuns', key: { workspace_id: 1, monitor_id: 1, started_at: -1 } },
  { on: 'scriptRuns', key: { started_at: 1 } },
  { on: 'scriptScreenshots', key: { monitor_id: 1, taken_at: -1 } },
  { on: 'scriptScreenshots', key: { taken_at: 1 } },
];

const PRUNE_SLICE = 1000;
const MAX_SLICES = 100;

const runOf = (doc: Document | null): ScriptRun | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return { result_id: _id, ...rest } as ScriptRun;
};

const shotOf = (doc: Document | null): ScriptScreenshot | null => {
  if (!doc) return null;
  const { _id, data, ...rest } = doc;
  // A copy of the Binary's bytes (`value()` may be a view of a larger buffer).
  return { result_id: _id, ...rest, data: new Uint8Array((data as Binary).value()) } as ScriptScreenshot;
};

export const mongoScriptRuns = ({ col }: MongoContext): ScriptRunStore => {
  const withShot = async (run: ScriptRun | null) => {
    if (!run?.screenshot) return run;
    const kept = await col.scriptScreenshots.findOne({ _id: run.result_id }, { projection: { _id: 1 } });
    return kept ? run : { ...run, screenshot: null };
  };
  return {
    async addScriptRuns(runs, screenshots) {
      if (runs.length > 0)
        await col.scriptRuns.bulkWrite(
          runs.map(({ result_id, ...rest }) => ({
            updateOne: { filter: { _id: result_id }, update: { $setOnInsert: rest }, upsert: true },
          })),
          { ordered: false },
        );
      if (screenshots.length > 0)
        await col.scriptScreenshots.bulkWrite(
          screenshots.map(({ result_id, data, ...rest }) => ({
            updateOne: {
              filter: { _id: result_id },
              update: { $setOnInsert: { ...rest, data: new Binary(data) } },
              upsert: true,
            },
          })),
          { ordered: false },
        );
    },
    async getScriptRun(workspaceId, monitorId, resultId) {
      return withShot(
        runOf(
          await col.scriptRuns.findOne({ _id: resultId, workspace_id: workspaceId, monitor_id: monitorId }),
        ),
      );
    },
    async latestScriptRun(workspaceId, monitorId) {
      const [doc] = await col.scriptRuns
        .find({ workspace_id: workspaceId, monitor_id: monitorId })
        .sort({ started_at: -1, _id: -1 })
        .limit(1)
        .toArray();
      return withShot(runOf(doc ?? null));
    },
    async getScreenshot(workspaceId, monitorId, resultId) {
      return shotOf(
        await col.scriptScreenshots.findOne({
          _id: resultId,
          workspace_id: workspaceId,
          monitor_id: monitorId,
        }),
      );
    },
    async pruneScriptRuns(before, screenshotsBefore, keepPerMonitor) {
      let total = 0;
      const slices = async (step: () => Promise<number>) => {
        for (let i = 0; i < MAX_SLICES; i++) {
          const n = await step();
          total += n;
          if (n < PRUNE_SLICE) break;
        }
      };
      await slices(() => deleteSome(col.scriptRuns, { started_at: { $lt: before } }, PRUNE_SLICE));
      const shotsBefore = new Date(Math.max(before.getTime(), screenshotsBefore.getTime()));
      await slices(() => deleteSome(col.scriptScreenshots, { taken_at: { $lt: shotsBefore } }, PRUNE_SLICE));
      // Beyond each monitor's newest `keepPerMonitor`: the ids past that rank, along the
      // (monitor_id, taken_at) index; only monitors that have more than that many.
      await slices(async () => {
        const over = await col.scriptScreenshots
          .aggregate<{ ids: string[] }>([
            { $sort: { monitor_id: 1, taken_at: -1, _id: -1 } },
            { $group: { _id: '$monitor_id', ids: { $push: '$_id' } } },
            { $match: { [`ids.${keepPerMonitor}`]: { $exists: true } } },
            { $project: { ids: { $slice: ['$ids', keepPerMonitor, PRUNE_SLICE] } } },
            { $limit: PRUNE_SLICE },
          ])
          .toArray();
        const ids = over.flatMap((o) => o.ids).slice(0, PRUNE_SLICE);
        if (ids.length === 0) return 0;
        return (await col.scriptScreenshots.deleteMany({ _id: { $in: ids } })).deletedCount;
      });
      return total;
    },
  };
};
