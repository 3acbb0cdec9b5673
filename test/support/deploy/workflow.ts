import { arr, NODE_MAJOR, type Obj, obj, str } from './common.js';

/**
 * The CI workflow for public hosts (.github/workflows/ci.yml), read with js-yaml. What is checked is our
 * intent: every job that sets up Node runs on the documented runtime and the next LTS (NODE_MAJOR and
 * NODE_MAJOR + 2) through its matrix; one job runs `npm test`; one runs the store contract suite
 * against a MongoDB it starts. Whether GitHub accepts the file is GitHub's call.
 */
export const CI_WORKFLOW = '.github/workflows/ci.yml';

export const workflowProblems = (doc: unknown): string[] => {
  const p: string[] = [];
  const want = [NODE_MAJOR, NODE_MAJOR + 2];
  const jobs = Object.entries(obj(obj(doc).jobs));
  if (jobs.length === 0) p.push(`${CI_WORKFLOW}: no jobs`);
  const runs = (steps: Obj[]) => steps.map((s) => str(s.run)).join('\n');
  for (const [name, job] of jobs) {
    const steps = arr(obj(job).steps).map(obj);
    const setup = steps.find((s) => str(s.uses).startsWith('actions/setup-node@'));
    if (!setup) continue;
    const version = str(obj(setup.with)['node-version']);
    const matrix = arr(obj(obj(obj(job).strategy).matrix).node).map(Number);
    if (!/^\$\{\{\s*matrix\.node\s*\}\}$/.test(version))
      p.push(`${name}: node-version ${version} is not the matrix's`);
    if (matrix.join() !== want.join())
      p.push(`${name}: tests Node ${matrix.join(', ') || 'nothing'}, not ${want.join(' and ')}`);
  }
  const all = jobs.map(([name, job]) => ({ name, steps: arr(obj(job).steps).map(obj) }));
  if (!all.some((j) => /\bnpm test\b/.test(runs(j.steps)))) p.push('no job runs npm test');
  const mongo = all.find((j) => j.steps.some((s) => 'LOOKOUT_MONGODB_URI' in obj(s.env)));
  if (!mongo) p.push('no job runs anything with LOOKOUT_MONGODB_URI set');
  else {
    if (!/docker run .*\bmongo:/.test(runs(mongo.steps))) p.push(`${mongo.name}: starts no MongoDB`);
    if (!/--project contract/.test(runs(mongo.steps))) p.push(`${mongo.name}: runs no store contract suite`);
  }
  return p;
};
