import { existsSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import dockerignoreModule from '@balena/dockerignore';
import { Arg, Copy, DockerfileParser, Env } from 'dockerfile-ast';
import {
  agentSetting,
  cpSetting,
  deployFiles,
  envProblems,
  type Kind,
  NODE_MAJOR,
  ROOT,
  read,
  sourceOf,
} from './common.js';

/**
 * Our Dockerfiles, read with dockerfile-ast (the parser behind the Docker language server) and
 * .dockerignore with @balena/dockerignore (Docker's own matching rules). What is checked is ours:
 * COPY sources exist and are not ignored, stages copy what earlier stages made, the entry point is
 * compiled from a source file, ports and settings agree with the config loaders.
 */

// A CommonJS module whose types declare an ES default export: at run time the import is the factory.
const dockerignore = dockerignoreModule as unknown as typeof dockerignoreModule.default;
const ignore = dockerignore({}).add(read('.dockerignore'));
/** True when the build context leaves out `path` (the path itself or one of its parent directories). */
export const ignoredByDocker = (path: string) => ignore.ignores(path);

interface Stage {
  name: string;
  base: string;
  workdir: string;
  /** Absolute paths this stage has: copied in, installed (node_modules) or compiled (dist). */
  has: Set<string>;
  instructions: { op: string; args: string; from: string | undefined }[];
}
export interface Dockerfile {
  path: string;
  image: string;
  kind: Kind | null;
  stages: Stage[];
  problems: string[];
  final: Stage;
  env: Map<string, string>;
  exposed: number[];
  cmd: string[];
  user: string;
}

const tsReferences = (project: string): string[] => {
  const tsconfig = JSON.parse(read(`${project}/tsconfig.json`)) as { references?: { path: string }[] };
  const refs = (tsconfig.references ?? []).map((r) => posix.normalize(posix.join(project, r.path)));
  return [project, ...refs.flatMap(tsReferences)];
};

export const parseDockerfile = (path: string, text: string): Dockerfile => {
  const problems: string[] = [];
  const image = /^#\s*image:\s*(\S+)/m.exec(text)?.[1] ?? '';
  if (!image) problems.push(`${path}: no "# image: <name>" line naming the image it builds`);
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  const env = new Map<string, string>();
  const exposed: number[] = [];
  let cmd: string[] = [];
  let user = 'root';
  const inStage = (stage: Stage | undefined, p: string) => posix.resolve(stage?.workdir ?? '/', p);
  for (const ins of DockerfileParser.parse(text).getInstructions()) {
    const op = ins.getKeyword().toUpperCase();
    const words = ins.getArguments().map((a) => a.getValue());
    const rest = ins.getArgumentsContent() ?? '';
    const stage = stages.at(-1);
    if (ins instanceof Arg) {
      const prop = ins.getProperty();
      if (prop?.getValue() != null) args.set(prop.getName(), prop.getValue()!);
      continue;
    }
    if (op === 'FROM') {
      const base = (words[0] ?? '').replace(/\$\{(\w+)\}/g, (m, n: string) => args.get(n) ?? m);
      const as = words[1]?.toUpperCase() === 'AS' ? words[2] : undefined;
      stages.push({
        name: as ?? String(stages.length),
        base,
        workdir: '/',
        has: new Set(),
        instructions: [],
      });
      env.clear();
      exposed.length = 0;
      cmd = [];
      user = 'root';
      continue;
    }
    if (!stage) {
      problems.push(`${path}: ${op} before FROM`);
      continue;
    }
    const from = ins instanceof Copy ? (ins.getFromFlag()?.getValue() ?? undefined) : undefined;
    stage.instructions.push({ op, args: rest, from });
    if (op === 'WORKDIR') stage.workdir = inStage(stage, rest);
    else if (ins instanceof Env)
      for (const p of ins.getProperties()) env.set(p.getName(), p.getValue() ?? '');
    else if (op === 'EXPOSE') exposed.push(...words.map((p) => Number.parseInt(p, 10)));
    else if (op === 'USER') user = rest;
    else if (op === 'CMD') {
      try {
        cmd = JSON.parse(rest) as string[];
      } catch {
        problems.push(`${path}: CMD must be in exec form (a JSON array), so node gets SIGTERM`);
      }
    } else if (op === 'RUN') {
      if (/\bnpm ci\b/.test(rest)) stage.has.add(inStage(stage, 'node_modules'));
      for (const b of rest.matchAll(/\btsc -b(?:\s+([\w./-]+))?/g)) {
        const projects = b[1] ? tsReferences(b[1]) : ['proto', 'shared', 'control-plane', 'agent'];
        for (const p of projects) stage.has.add(inStage(stage, `${p}/dist`));
      }
    } else if (op === 'COPY' || op === 'ADD') {
      const dest = words.at(-1) ?? '';
      const sources = words.slice(0, -1);
      const destIsDir = dest.endsWith('/') || sources.length > 1;
      for (const src of sources) {
        if (from !== undefined) {
          const source = stages.find((s) => s.name === from);
          if (!source || source === stage) {
            problems.push(`${path}: COPY --from=${from}: no earlier stage named "${from}"`);
            continue;
          }
          const abs = posix.resolve(source.workdir, src);
          const known = [...source.has].some((h) => abs === h || abs.startsWith(`${h}/`));
          if (!known) problems.push(`${path}: COPY --from=${from} ${src}: stage "${from}" never made ${abs}`);
        } else {
          const rel = posix.normalize(src).replace(/\/$/, '');
          if (!existsSync(join(ROOT, rel))) problems.push(`${path}: COPY ${src}: not in the repository`);
          else if (ignoredByDocker(rel)) problems.push(`${path}: COPY ${src}: excluded by .dockerignore`);
        }
        stage.has.add(inStage(stage, destIsDir ? posix.join(dest, posix.basename(src)) : dest));
      }
    }
  }
  const final = stages.at(-1)!;
  const entry = cmd[1] ?? '';
  const kind: Kind | null = entry.startsWith('control-plane/')
    ? 'control-plane'
    : entry.startsWith('agent/')
      ? 'agent'
      : null;
  return { path, image, kind, stages, problems, final, env, exposed, cmd, user };
};

export const dockerfileProblems = (d: Dockerfile): string[] => {
  const p = [...d.problems];
  if (d.stages.length < 2) p.push(`${d.path}: not a multi-stage build`);
  for (const s of d.stages)
    if (s.base !== `node:${NODE_MAJOR}-bookworm-slim`)
      p.push(
        `${d.path}: stage ${s.name} is FROM ${s.base}, not node:${NODE_MAJOR}-bookworm-slim (package.json engines)`,
      );
  if (d.cmd[0] !== 'node' || d.cmd.length !== 2) p.push(`${d.path}: CMD should be ["node", "<entry>.js"]`);
  if (!d.kind) p.push(`${d.path}: CMD ${JSON.stringify(d.cmd)} runs neither the control plane nor the agent`);
  const entry = d.cmd[1] ?? '';
  if (!sourceOf(entry)) p.push(`${d.path}: CMD ${entry} is not compiled from a file in the repository`);
  if (
    !d.final.has.has(posix.resolve(d.final.workdir, entry)) &&
    ![...d.final.has].some((h) => posix.resolve(d.final.workdir, entry).startsWith(`${h}/`))
  )
    p.push(`${d.path}: the final stage never gets ${entry}`);
  if (/^(root|0)(:|$)/.test(d.user)) p.push(`${d.path}: the final stage runs as root`);
  if (d.kind) p.push(...envProblems(d.path, d.kind, [...d.env.keys()]));
  // Production dependencies only: node_modules of the final stage come from an `npm ci --omit=dev`.
  const nm = d.final.instructions.find((i) => i.op === 'COPY' && /\bnode_modules\b/.test(i.args));
  const nmStage = d.stages.find((s) => s.name === nm?.from);
  if (
    !nmStage?.instructions.some(
      (i) => i.op === 'RUN' && /npm ci\b.*--omit=dev|npm prune --omit=dev/.test(i.args),
    )
  )
    p.push(`${d.path}: the final stage's node_modules do not come from an install without dev dependencies`);
  if (d.final.instructions.some((i) => i.op === 'RUN' && /\bnpm (ci|install)\b/.test(i.args)))
    p.push(`${d.path}: the final stage installs packages itself`);
  const health = d.final.instructions.find((i) => i.op === 'HEALTHCHECK');
  if (health && !health.args.includes('/healthz')) p.push(`${d.path}: HEALTHCHECK does not ask /healthz`);
  const want =
    d.kind === 'control-plane'
      ? [cpSetting(d.env, 'http_port'), cpSetting(d.env, 'rpc_port')]
      : [agentSetting(d.env, 'metrics_port')];
  if ([...want].sort().join() !== d.exposed.map(String).sort().join())
    p.push(`${d.path}: EXPOSE ${d.exposed.join(' ')} but the process listens on ${want.join(' ')}`);
  if (d.kind === 'control-plane') {
    if (cpSetting(d.env, 'http_host') !== '0.0.0.0') p.push(`${d.path}: LOOKOUT_HTTP_HOST must be 0.0.0.0`);
    // The admin CLI (docs/deploy.md runs it in the container): bin/lookout.js → dist/cli/….
    const bin = 'control-plane/bin/lookout.js';
    if (!d.final.has.has(posix.resolve(d.final.workdir, 'control-plane/bin')))
      p.push(`${d.path}: no admin CLI`);
    const target = /import '\.\.\/(dist\/[^']+)'/.exec(read(bin))?.[1];
    if (!target || !sourceOf(`control-plane/${target}`)) p.push(`${d.path}: ${bin} imports a missing module`);
  }
  return p;
};

export const dockerfiles = deployFiles
  .filter((f) => f.endsWith('.Dockerfile') || basename(f) === 'Dockerfile')
  .map((f) => parseDockerfile(f, read(f)));
export const imageKinds = new Map(dockerfiles.map((d) => [d.image, d]));
export const repoOf = (image: string) => image.replace(/:[^/:]+$/, '');
export const tagOf = (image: string) => /:([^/:]+)$/.exec(image)?.[1] ?? '';
export const kindOfImage = (image: string) => imageKinds.get(repoOf(image))?.kind ?? null;
