import { ApiError, type LookoutClient } from '../api-client/client.js';
import { at } from './check-file.js';
import type { Names, ResourceKind } from './kind.js';
import { KINDS } from './kinds/index.js';
import type { Change } from './plan.js';
import { type ConfigSource, type FileProblem, FileProblems } from './yaml-source.js';

const CHECKS_IN_FLIGHT = 3;

/** A bulk check's refusal as problems of the file: `monitors[i].field` back to the item's path and line. */
const refusalProblems = (
  source: ConfigSource,
  kind: ResourceKind,
  chunk: Change[],
  e: ApiError,
): FileProblem[] => {
  if (e.status === 402) return [at(source, [kind.key], e.message)];
  return e.details.map((d) => {
    const m = d.field.match(/^\w+\[(\d+)\]\.?(.*)$/);
    const change = m ? chunk[Number(m[1])] : undefined;
    if (!change || !m)
      return { path: kind.key, line: source.lineOf([kind.key]), message: `${d.field} ${d.message}` };
    const rest = m[2] ? m[2].split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== '') : [];
    return at(
      source,
      [kind.key, change.index!, ...rest.map((x) => (/^\d+$/.test(x) ? Number(x) : x))],
      d.message,
    );
  });
};

/** New items of a kind with a bulk check are checked by the API (all of them) before anything changes. */
export const checkBulkCreates = async (
  api: LookoutClient,
  source: ConfigSource,
  changes: Change[],
  names: Names,
) => {
  const problems: FileProblem[] = [];
  for (const kind of KINDS) {
    const bulk = kind.bulk;
    if (!bulk) continue;
    const creates = changes.filter((c) => c.kind === kind && c.action === 'create');
    const chunks: Change[][] = [];
    for (let from = 0; from < creates.length; from += bulk.size)
      chunks.push(creates.slice(from, from + bulk.size));
    // A few checks in flight (they store nothing), their problems kept in the file's order.
    const found: FileProblem[][] = chunks.map(() => []);
    let next = 0;
    const worker = async () => {
      for (let n = next++; n < chunks.length; n = next++) {
        const chunk = chunks[n]!;
        try {
          await bulk.check(
            api,
            chunk.map((c) => kind.toBody(c.item!, names)),
            creates.length - chunk.length,
          );
        } catch (e) {
          if (!(e instanceof ApiError) || (e.status !== 422 && e.status !== 402)) throw e;
          found[n] = refusalProblems(source, kind, chunk, e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECKS_IN_FLIGHT, chunks.length) }, worker));
    // The plan limit is the same refusal for every chunk: said once.
    const seen = new Set<string>();
    for (const p of found.flat()) {
      const key = `${p.path}\n${p.message}`;
      if (!seen.has(key)) problems.push(p);
      seen.add(key);
    }
  }
  if (problems.length) throw new FileProblems(source.file, problems);
};
