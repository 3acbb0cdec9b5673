import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, posix, relative, resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { agentConfigKeys, agentEnvName } from '../../agent/src/config.js';
import { configKeys, envName } from '../../control-plane/src/config.js';

/**
 * Offline checks of deploy/ (no Docker daemon, no cluster here): every YAML file parses, and the
 * Dockerfiles, the compose file, its HAProxy config, the Kubernetes manifests and the systemd unit
 * agree with each other and with the code: env names exist in the config loaders, images are the ones
 * the Dockerfiles build, ports and probes match the configured ports, names referenced exist.
 * Each check returns a list of problems; the last block feeds it broken copies to show it can fail.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const DEPLOY = join(ROOT, 'deploy');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
const deployFiles = walk(DEPLOY).map((p) => relative(ROOT, p).split('\\').join('/'));
const yamlFiles = deployFiles.filter((p) => /\.ya?ml$/.test(p));

// ---------------------------------------------------------------------------------------------------
// What the code accepts

type Kind = 'control-plane' | 'agent';
const keyDefault = (keys: object, key: string): unknown =>
  (keys as Record<string, { default?: unknown }>)[key]?.default;
const CP_ENV = new Set([...Object.keys(configKeys).map(envName), 'LOOKOUT_CONFIG_FILE']);
const AGENT_ENV = new Set(Object.keys(agentConfigKeys).map(agentEnvName));
/** Variables that are not Lookout settings but are fine to set on a Node.js container. */
const OTHER_ENV = new Set(['NODE_ENV', 'NODE_OPTIONS']);
const envNamesOf = (kind: Kind) => (kind === 'control-plane' ? CP_ENV : AGENT_ENV);

const envProblems = (where: string, kind: Kind, names: Iterable<string>) =>
  [...names]
    .filter((n) => !envNamesOf(kind).has(n) && !OTHER_ENV.has(n))
    .map((n) => `${where}: ${n} is not a setting of the ${kind}`);

/** Typed settings a deployment resolves: the value it sets, else the loader's default. */
const cpSetting = (env: Map<string, string>, key: keyof typeof configKeys) =>
  env.get(envName(key)) || str(keyDefault(configKeys, key));
const agentSetting = (env: Map<string, string>, key: string) =>
  env.get(agentEnvName(key)) || str(keyDefault(agentConfigKeys, key));

/** Every LOOKOUT_* word in a text: each must be a setting of the control plane or of the agent. */
const lookoutNameProblems = (file: string, text: string) =>
  [...new Set(text.match(/\bLOOKOUT_[A-Z0-9_]*[A-Z0-9]\b/g) ?? [])]
    .filter((n) => !CP_ENV.has(n) && !AGENT_ENV.has(n))
    .map((n) => `${file}: ${n} is neither a control-plane nor an agent setting`);

/** `control-plane/dist/main.js` → `control-plane/src/main.ts` (rootDir src, outDir dist), if it exists. */
const sourceOf = (distPath: string): string | null => {
  const m = /^([\w-]+)\/dist\/(.+)\.js$/.exec(distPath);
  if (!m || !existsSync(join(ROOT, m[1]!, 'tsconfig.json'))) return null;
  const tsconfig = JSON.parse(read(`${m[1]}/tsconfig.json`)) as { compilerOptions?: Obj };
  if (tsconfig.compilerOptions?.outDir !== 'dist' || tsconfig.compilerOptions?.rootDir !== 'src') return null;
  const src = `${m[1]}/src/${m[2]}.ts`;
  return existsSync(join(ROOT, src)) ? src : null;
};

// ---------------------------------------------------------------------------------------------------
// .dockerignore

const dockerignore = read('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const globToRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/^\/+|\/+$/g, '')
      .split('**/')
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*/g, '.*')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('(?:.*/)?')}$`,
  );
/** True when the build context leaves out `path` (the path itself or one of its parent directories). */
const ignoredByDocker = (path: string, patterns = dockerignore) => {
  const parts = path.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const re = globToRegExp(negate ? raw.slice(1) : raw);
    if (prefixes.some((p) => re.test(p))) ignored = !negate;
  }
  return ignored;
};

// ---------------------------------------------------------------------------------------------------
// Dockerfiles

interface Stage {
  name: string;
  base: string;
  workdir: string;
  /** Absolute paths this stage has: copied in, installed (node_modules) or compiled (dist). */
  has: Set<string>;
  instructions: { op: string; args: string }[];
}
interface Dockerfile {
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

const parseDockerfile = (path: string, text: string): Dockerfile => {
  const problems: string[] = [];
  const image = /^#\s*image:\s*(\S+)/m.exec(text)?.[1] ?? '';
  if (!image) problems.push(`${path}: no "# image: <name>" line naming the image it builds`);
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  const env = new Map<string, string>();
  const exposed: number[] = [];
  let cmd: string[] = [];
  let user = 'root';
  const inStage = (stage: Stage | undefined, p: string) => posix.resolve(stage?.workdir ?? '/', p);
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = m[1]!.toUpperCase();
    const rest = m[2]!.replace(/\$\{(\w+)\}/g, (_, name: string) => args.get(name) ?? `\${${name}}`);
    const stage = stages.at(-1);
    if (op === 'ARG') {
      const [k, v] = rest.split('=');
      if (k && v !== undefined) args.set(k.trim(), v.trim());
      continue;
    }
    if (op === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      stages.push({
        name: f?.[2] ?? String(stages.length),
        base: f?.[1] ?? '',
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
    stage.instructions.push({ op, args: rest });
    if (op === 'WORKDIR') stage.workdir = inStage(stage, rest);
    else if (op === 'ENV') {
      for (const kv of rest.match(/[A-Z_][A-Z0-9_]*=("[^"]*"|\S+)/g) ?? []) {
        const i = kv.indexOf('=');
        env.set(kv.slice(0, i), kv.slice(i + 1).replace(/^"|"$/g, ''));
      }
    } else if (op === 'EXPOSE') exposed.push(...rest.split(/\s+/).map((p) => Number.parseInt(p, 10)));
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
      const words = rest.split(/\s+/);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      const dest = paths.pop() ?? '';
      const destIsDir = dest.endsWith('/') || paths.length > 1;
      for (const src of paths) {
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

const dockerfileProblems = (d: Dockerfile): string[] => {
  const p = [...d.problems];
  if (d.stages.length < 2) p.push(`${d.path}: not a multi-stage build`);
  for (const s of d.stages)
    if (s.base !== 'node:20-bookworm-slim') p.push(`${d.path}: stage ${s.name} is FROM ${s.base}`);
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
  const nmFrom = nm && /--from=(\S+)/.exec(nm.args)?.[1];
  const nmStage = d.stages.find((s) => s.name === nmFrom);
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

const dockerfiles = deployFiles
  .filter((f) => f.endsWith('.Dockerfile') || basename(f) === 'Dockerfile')
  .map((f) => parseDockerfile(f, read(f)));
const imageKinds = new Map(dockerfiles.map((d) => [d.image, d]));
const repoOf = (image: string) => image.replace(/:[^/:]+$/, '');
const tagOf = (image: string) => /:([^/:]+)$/.exec(image)?.[1] ?? '';
const kindOfImage = (image: string) => imageKinds.get(repoOf(image))?.kind ?? null;

// ---------------------------------------------------------------------------------------------------
// HAProxy

interface Haproxy {
  frontends: Map<string, { ports: number[]; backend: string; h2: boolean }>;
  backends: Map<
    string,
    { servers: { name: string; host: string; port: number; opts: string }[]; httpchk: string }
  >;
}
const parseHaproxy = (text: string): Haproxy => {
  const frontends: Haproxy['frontends'] = new Map();
  const backends: Haproxy['backends'] = new Map();
  let section = '';
  let name = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const head = /^(global|defaults|frontend|backend|listen|resolvers)\b\s*(\S*)/.exec(line);
    if (head && !raw.startsWith(' ')) {
      section = head[1]!;
      name = head[2]!;
      if (section === 'frontend') frontends.set(name, { ports: [], backend: '', h2: false });
      if (section === 'backend') backends.set(name, { servers: [], httpchk: '' });
      continue;
    }
    const fe = frontends.get(name);
    const be = backends.get(name);
    if (section === 'frontend' && fe) {
      const bind = /^bind\s+\S*:(\d+)(.*)$/.exec(line);
      if (bind) {
        fe.ports.push(Number(bind[1]));
        if (/\bproto h2\b/.test(bind[2]!)) fe.h2 = true;
      }
      const def = /^default_backend\s+(\S+)/.exec(line);
      if (def) fe.backend = def[1]!;
    }
    if (section === 'backend' && be) {
      const server = /^server\s+(\S+)\s+([^\s:]+):(\d+)\s*(.*)$/.exec(line);
      if (server)
        be.servers.push({ name: server[1]!, host: server[2]!, port: Number(server[3]), opts: server[4]! });
      const chk = /^option httpchk\s+(?:\w+\s+)?(\S+)/.exec(line);
      if (chk) be.httpchk = chk[1]!;
    }
  }
  return { frontends, backends };
};

// ---------------------------------------------------------------------------------------------------
// Compose

const COMPOSE = 'deploy/compose/compose.yaml';
/** `${VAR:-default}` → default (what the file means when nothing is set). */
const interpolate = (v: string) =>
  v.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_, __, def?: string) => def ?? '');
const composeEnv = (service: Obj) => {
  const env = service.environment;
  const out = new Map<string, string>();
  if (Array.isArray(env))
    for (const e of env) {
      const [k, ...v] = str(e).split('=');
      out.set(k!, interpolate(v.join('=')));
    }
  else for (const [k, v] of Object.entries(obj(env))) out.set(k, interpolate(str(v)));
  return out;
};
const dependsOn = (service: Obj) =>
  Array.isArray(service.depends_on) ? service.depends_on.map(str) : Object.keys(obj(service.depends_on));
/** Hosts and ports of a URL (several for a MongoDB seed list). */
const urlHosts = (url: string) => {
  const m = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]+)/.exec(url);
  const defaultPort = url.startsWith('mongodb') ? 27017 : url.startsWith('https') ? 443 : 80;
  return (m?.[1] ?? '').split(',').map((hp) => {
    const [host, port] = hp.split(':');
    return { host: host!, port: port ? Number(port) : defaultPort };
  });
};

const composeProblems = (doc: unknown, haproxyText: (file: string) => string | null): string[] => {
  const p: string[] = [];
  const services = obj(obj(doc).services);
  const volumes = obj(obj(doc).volumes);
  const names = new Set(Object.keys(services));
  const byKind = (k: Kind) =>
    Object.keys(services).filter((n) => kindOfImage(str(obj(services[n]).image)) === k);
  const listens = new Map<string, number[]>();
  for (const [name, raw] of Object.entries(services)) {
    const s = obj(raw);
    const image = str(s.image);
    const kind = kindOfImage(image);
    const env = composeEnv(s);
    if (!image) p.push(`${name}: no image`);
    if (!tagOf(image) || tagOf(image) === 'latest') p.push(`${name}: image ${image} has no fixed tag`);
    if (kind) {
      const d = imageKinds.get(repoOf(image))!;
      const build = obj(s.build);
      const context = posix.normalize(posix.join('deploy/compose', str(build.context)));
      if (context !== '.') p.push(`${name}: build context ${context} is not the repository root`);
      if (posix.normalize(str(build.dockerfile)) !== d.path)
        p.push(`${name}: image ${image} is built by ${d.path}`);
      p.push(...envProblems(name, kind, env.keys()));
    } else if (s.build) p.push(`${name}: builds ${image}, which no Dockerfile under deploy/ names`);
    for (const dep of dependsOn(s)) {
      if (!names.has(dep)) p.push(`${name}: depends on unknown service ${dep}`);
      const cond = str(obj(obj(s.depends_on)[dep]).condition);
      if (cond === 'service_healthy' && !obj(services[dep]).healthcheck)
        p.push(`${name}: waits for ${dep} to be healthy, but it has no healthcheck`);
      if (cond === 'service_completed_successfully' && str(obj(services[dep]).restart) !== 'no')
        p.push(`${name}: waits for ${dep} to complete, but it restarts`);
      if (obj(services[dep]).profiles && !s.profiles)
        p.push(`${name}: depends on ${dep}, which is in a profile`);
    }
    for (const v of arr(s.volumes)) {
      const source = str(v).split(':')[0]!;
      if (source.startsWith('.')) {
        if (!existsSync(join(ROOT, 'deploy/compose', source)))
          p.push(`${name}: mounts missing file ${source}`);
      } else if (!(source in volumes)) p.push(`${name}: volume ${source} is not declared`);
    }
    for (const [k, v] of env)
      if (/^(https?|mongodb):\/\//.test(v))
        for (const h of urlHosts(v))
          if (!names.has(h.host)) p.push(`${name}: ${k} points at unknown host ${h.host}`);
    if (kind === 'control-plane')
      listens.set(name, [Number(cpSetting(env, 'http_port')), Number(cpSetting(env, 'rpc_port'))]);
  }

  // MongoDB: three mongo:7 members of rs0, initiated once with exactly those members.
  const mongos = Object.keys(services).filter((n) => /^mongo:7\b/.test(str(obj(services[n]).image)));
  const members = mongos.filter((n) =>
    arr(obj(services[n]).command).map(str).join(' ').includes('--replSet rs0'),
  );
  if (members.length !== 3)
    p.push(`expected three replica-set members (--replSet rs0), found ${members.join(', ')}`);
  for (const m of members) listens.set(m, [27017]);
  const init = mongos.find((n) => arr(obj(services[n]).command).map(str).join(' ').includes('rs.initiate'));
  if (!init) p.push('no service runs rs.initiate');
  else {
    const script = arr(obj(services[init]).command).map(str).join(' ');
    const hosts = [...script.matchAll(/host:\s*'([^']+)'/g)].map((m) => m[1]!).sort();
    if (
      hosts.join() !==
      members
        .map((m) => `${m}:27017`)
        .sort()
        .join()
    )
      p.push(`${init}: initiates rs0 with ${hosts.join(', ')}, not the members ${members.join(', ')}`);
    if (!/_id:\s*'rs0'/.test(script)) p.push(`${init}: replica set name is not rs0`);
    if (str(obj(services[init]).restart) !== 'no') p.push(`${init}: must run once (restart: "no")`);
  }

  // Control planes: at least two, on the replica set, listening on all interfaces, no local agents.
  const cps = byKind('control-plane');
  if (cps.length < 2) p.push(`expected at least two control-plane replicas, found ${cps.length}`);
  for (const name of cps) {
    const s = obj(services[name]);
    const env = composeEnv(s);
    const uri = env.get('LOOKOUT_MONGODB_URI') ?? '';
    if (!/[?&]replicaSet=rs0\b/.test(uri))
      p.push(`${name}: LOOKOUT_MONGODB_URI does not name replicaSet=rs0`);
    for (const h of urlHosts(uri))
      if (!members.includes(h.host) || h.port !== 27017)
        p.push(`${name}: ${h.host}:${h.port} is not a replica-set member`);
    if (env.get('LOOKOUT_LOCAL_AGENTS')) p.push(`${name}: LOOKOUT_LOCAL_AGENTS must be empty`);
    if (cpSetting(env, 'http_host') !== '0.0.0.0') p.push(`${name}: LOOKOUT_HTTP_HOST must be 0.0.0.0`);
    const [http, rpc] = listens.get(name)!;
    const exposed = arr(s.expose).map(Number);
    if (!exposed.includes(http!) || !exposed.includes(rpc!))
      p.push(`${name}: expose ${exposed} ≠ ports ${http}, ${rpc}`);
    const check = arr(obj(s.healthcheck).test).map(str).join(' ');
    if (!check.includes(`:${http}/healthz`)) p.push(`${name}: healthcheck does not ask :${http}/healthz`);
  }

  // The balancer: every HAProxy server is a control plane on one of its ports; /readyz decides.
  const lbs = Object.keys(services).filter((n) => /^haproxy:/.test(str(obj(services[n]).image)));
  const lbConfigs = new Map<string, Haproxy>();
  if (lbs.length !== 1) p.push(`expected one haproxy service, found ${lbs.length}`);
  for (const lb of lbs) {
    const s = obj(services[lb]);
    const mount = arr(s.volumes)
      .map(str)
      .find((v) => v.includes('/usr/local/etc/haproxy/haproxy.cfg'));
    const text = mount ? haproxyText(mount.split(':')[0]!) : null;
    if (!text) {
      p.push(`${lb}: no haproxy.cfg mounted`);
      continue;
    }
    const cfg = parseHaproxy(text);
    const published = arr(s.ports).map((x) => Number(str(x).split(':').at(-1)));
    const lbPorts: number[] = [];
    for (const [fname, fe] of cfg.frontends) {
      lbPorts.push(...fe.ports);
      if (fname !== 'stats' && !cfg.backends.has(fe.backend))
        p.push(`haproxy ${fname}: unknown backend ${fe.backend}`);
      for (const port of fe.ports)
        if (!published.includes(port)) p.push(`${lb}: port ${port} is not published`);
    }
    for (const [bname, be] of cfg.backends) {
      const servedHosts = new Set(be.servers.map((x) => x.host));
      if (cps.some((c) => !servedHosts.has(c)))
        p.push(`haproxy ${bname}: not every control plane is a server`);
      for (const server of be.servers) {
        const ports = listens.get(server.host);
        if (!ports || !cps.includes(server.host))
          p.push(`haproxy ${bname}: ${server.host} is not a control plane`);
        else if (!ports.includes(server.port))
          p.push(`haproxy ${bname}: ${server.host} does not listen on ${server.port}`);
        const isRpc = ports?.[1] === server.port;
        if (isRpc && !/\bproto h2\b/.test(server.opts))
          p.push(`haproxy ${bname}: gRPC to ${server.name} needs proto h2`);
        const tracked = /\btrack (\S+)\/(\S+)/.exec(server.opts);
        if (tracked) {
          const t = cfg.backends.get(tracked[1]!);
          if (
            t?.httpchk !== '/readyz' ||
            !t.servers.some((x) => x.name === tracked[2] && x.host === server.host)
          )
            p.push(
              `haproxy ${bname}: ${server.name} tracks a server that is not its replica's /readyz check`,
            );
        } else if (!/\bcheck\b/.test(server.opts) || be.httpchk !== '/readyz')
          p.push(`haproxy ${bname}: ${server.name} is not taken out of rotation by /readyz`);
      }
    }
    listens.set(lb, lbPorts);
    lbConfigs.set(lb, cfg);
    const rpcFrontend = [...cfg.frontends.values()].find((fe) =>
      cfg.backends.get(fe.backend)?.servers.some((x) => listens.get(x.host)?.[1] === x.port),
    );
    if (rpcFrontend && !rpcFrontend.h2) p.push('haproxy: the gRPC frontend must bind with proto h2');
  }

  // Agents: two regions or more, unique instance ids, each pointed at a balancer port that reaches gRPC.
  const agents = byKind('agent');
  const regions = new Set(agents.map((a) => composeEnv(obj(services[a])).get('LOOKOUT_AGENT_REGION')));
  if (regions.size < 2) p.push(`expected agents in two regions, found ${[...regions].join(', ')}`);
  const ids = agents.map((a) => composeEnv(obj(services[a])).get('LOOKOUT_AGENT_INSTANCE_ID'));
  if (new Set(ids).size !== ids.length || ids.includes(undefined))
    p.push('agents need distinct LOOKOUT_AGENT_INSTANCE_IDs');
  for (const a of agents) {
    const env = composeEnv(obj(services[a]));
    if (!env.has('LOOKOUT_AGENT_TOKEN')) p.push(`${a}: no LOOKOUT_AGENT_TOKEN`);
    const [target] = urlHosts(env.get('LOOKOUT_AGENT_CONTROL_PLANE_URL') ?? '');
    if (!target || !listens.get(target.host)?.includes(target.port))
      p.push(`${a}: LOOKOUT_AGENT_CONTROL_PLANE_URL ${target?.host}:${target?.port} is nothing that listens`);
    else if (lbs.includes(target.host)) {
      const cfg = lbConfigs.get(target.host)!;
      const fe = [...cfg.frontends.values()].find((f) => f.ports.includes(target.port));
      const be = cfg.backends.get(fe?.backend ?? '');
      if (!be?.servers.length || !be.servers.every((x) => listens.get(x.host)?.[1] === x.port))
        p.push(`${a}: ${target.host}:${target.port} does not lead to the control planes' gRPC port`);
    } else if (listens.get(target.host)?.[1] !== target.port)
      p.push(`${a}: ${target.port} is not a gRPC port`);
    const metrics = Number(agentSetting(env, 'metrics_port'));
    if (!arr(obj(services[a]).expose).map(Number).includes(metrics))
      p.push(`${a}: metrics port ${metrics} not exposed`);
  }
  return p;
};

// ---------------------------------------------------------------------------------------------------
// Kubernetes

const NAMESPACE = 'lookout';
const k8sFiles = yamlFiles.filter((f) => f.startsWith('deploy/k8s/'));
const k8sDocs = () =>
  k8sFiles.flatMap((f) =>
    loadAll(read(f))
      .filter(isObj)
      .map((d) => ({ file: f, doc: d })),
  );

/** Whether `selector` picks pods labelled `labels`. */
const selects = (selector: unknown, labels: unknown) => {
  const sel = Object.entries(obj(selector));
  return sel.length > 0 && sel.every(([k, v]) => obj(labels)[k] === v);
};

const k8sProblems = (docs: { file: string; doc: Obj }[]): string[] => {
  const p: string[] = [];
  const resources = docs.filter((d) => d.doc.kind !== 'Kustomization');
  const ofKind = (k: string) => resources.filter((d) => d.doc.kind === k).map((d) => d.doc);
  const nameOf = (d: Obj) => str(obj(d.metadata).name);
  for (const { file, doc } of docs) {
    if (!doc.apiVersion || !doc.kind) p.push(`${file}: a document without apiVersion and kind`);
    if (doc.kind === 'Kustomization') {
      for (const r of arr(doc.resources).map(str))
        if (!existsSync(join(ROOT, posix.dirname(file), r))) p.push(`${file}: resource ${r} does not exist`);
      continue;
    }
    if (!nameOf(doc)) p.push(`${file}: a ${str(doc.kind)} without a name`);
    if (doc.kind !== 'Namespace' && obj(doc.metadata).namespace !== NAMESPACE)
      p.push(`${file}: ${str(doc.kind)} ${nameOf(doc)} is not in namespace ${NAMESPACE}`);
  }
  if (!ofKind('Namespace').some((n) => nameOf(n) === NAMESPACE)) p.push(`no Namespace ${NAMESPACE}`);
  const configMaps = new Map(ofKind('ConfigMap').map((c) => [nameOf(c), obj(c.data)]));
  const secrets = new Map(ofKind('Secret').map((s) => [nameOf(s), { ...obj(s.data), ...obj(s.stringData) }]));

  const deployments = ofKind('Deployment').map((d) => {
    const spec = obj(d.spec);
    const template = obj(spec.template);
    const pod = obj(template.spec);
    const containers = arr(pod.containers).map(obj);
    return { d, name: nameOf(d), spec, template, pod, containers };
  });
  const portsOf = (dep: (typeof deployments)[number]) =>
    new Map(
      dep.containers.flatMap((c) => arr(c.ports).map(obj)).map((x) => [str(x.name), Number(x.containerPort)]),
    );
  const resolvePort = (dep: (typeof deployments)[number], port: unknown) =>
    typeof port === 'number' ? port : portsOf(dep).get(str(port));

  const kinds = new Map<string, Kind>();
  const regions: string[] = [];
  for (const dep of deployments) {
    const where = `Deployment ${dep.name}`;
    if (!selects(obj(dep.spec.selector).matchLabels, obj(dep.template.metadata).labels))
      p.push(`${where}: selector does not match its pod labels`);
    const podSec = obj(dep.pod.securityContext);
    if (obj(podSec.seccompProfile).type !== 'RuntimeDefault')
      p.push(`${where}: no RuntimeDefault seccomp profile`);
    for (const c of dep.containers) {
      const image = str(c.image);
      const kind = kindOfImage(image);
      const cw = `${where}/${str(c.name)}`;
      if (!kind) {
        p.push(`${cw}: image ${image} is not built by a Dockerfile under deploy/`);
        continue;
      }
      kinds.set(dep.name, kind);
      if (!tagOf(image) || tagOf(image) === 'latest') p.push(`${cw}: image ${image} has no fixed tag`);
      // Environment: ConfigMaps and Secrets it loads, then its own entries.
      const env = new Map<string, string>();
      const names: string[] = [];
      for (const from of arr(c.envFrom).map(obj)) {
        const cm = str(obj(from.configMapRef).name);
        const sec = str(obj(from.secretRef).name);
        const data = cm ? configMaps.get(cm) : secrets.get(sec);
        if (!data) p.push(`${cw}: envFrom ${cm || sec} does not exist`);
        for (const [k, v] of Object.entries(data ?? {})) {
          names.push(k);
          env.set(k, str(v));
        }
      }
      for (const e of arr(c.env).map(obj)) {
        const n = str(e.name);
        names.push(n);
        const ref = obj(obj(e.valueFrom).secretKeyRef);
        const cmRef = obj(obj(e.valueFrom).configMapKeyRef);
        if (ref.name) {
          if (!(str(ref.key) in (secrets.get(str(ref.name)) ?? {})))
            p.push(`${cw}: ${n} from missing ${ref.name}/${ref.key}`);
          env.set(n, '<secret>');
        } else if (cmRef.name) {
          const v = configMaps.get(str(cmRef.name))?.[str(cmRef.key)];
          if (v === undefined) p.push(`${cw}: ${n} from missing ConfigMap ${cmRef.name}/${cmRef.key}`);
          env.set(n, str(v));
        } else if (obj(e.valueFrom).fieldRef) env.set(n, '<field>');
        else env.set(n, str(e.value));
      }
      p.push(...envProblems(cw, kind, names));
      // Ports, probes and scrape annotations agree with the configured ports.
      const ports = portsOf(dep);
      const probe = (name: string) => obj(obj(c[name]).httpGet);
      const annotations = obj(obj(dep.template.metadata).annotations);
      const grace = Number(
        kind === 'control-plane'
          ? cpSetting(env, 'shutdown_grace_ms')
          : agentSetting(env, 'shutdown_grace_ms'),
      );
      const preStop = arr(obj(obj(obj(c.lifecycle).preStop).exec).command).map(str);
      const pause = preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
      const period = Number(dep.pod.terminationGracePeriodSeconds ?? 30);
      if (period < pause + grace / 1000 + 1)
        p.push(
          `${cw}: terminationGracePeriodSeconds ${period} < preStop ${pause}s + shutdown grace ${grace / 1000}s`,
        );
      if (kind === 'control-plane') {
        const http = Number(cpSetting(env, 'http_port'));
        const rpc = Number(cpSetting(env, 'rpc_port'));
        if (ports.get('http') !== http)
          p.push(`${cw}: port "http" is ${ports.get('http')}, the HTTP API ${http}`);
        if (ports.get('rpc') !== rpc)
          p.push(`${cw}: port "rpc" is ${ports.get('rpc')}, the agents' listener ${rpc}`);
        for (const [name, path] of [
          ['livenessProbe', '/healthz'],
          ['readinessProbe', '/readyz'],
        ] as const) {
          const g = probe(name);
          if (g.path !== path || resolvePort(dep, g.port) !== http)
            p.push(`${cw}: ${name} must GET ${path} on ${http}`);
        }
        if (
          c.startupProbe &&
          (probe('startupProbe').path !== '/healthz' || resolvePort(dep, probe('startupProbe').port) !== http)
        )
          p.push(`${cw}: startupProbe must GET /healthz on ${http}`);
        if (annotations['prometheus.io/port'] !== String(http)) p.push(`${cw}: scrape port is not ${http}`);
        if (env.get('LOOKOUT_LOCAL_AGENTS')) p.push(`${cw}: LOOKOUT_LOCAL_AGENTS must be empty`);
        if (cpSetting(env, 'http_host') !== '0.0.0.0') p.push(`${cw}: LOOKOUT_HTTP_HOST must be 0.0.0.0`);
        if (!env.get('LOOKOUT_MONGODB_URI')) p.push(`${cw}: no LOOKOUT_MONGODB_URI (replicas need MongoDB)`);
        if (Number(dep.spec.replicas ?? 1) < 2) p.push(`${where}: fewer than two replicas`);
      } else {
        const metrics = Number(agentSetting(env, 'metrics_port'));
        if (ports.get('metrics') !== metrics)
          p.push(`${cw}: port "metrics" is ${ports.get('metrics')}, not ${metrics}`);
        const g = probe('livenessProbe');
        if (g.path !== '/healthz' || resolvePort(dep, g.port) !== metrics)
          p.push(`${cw}: livenessProbe must GET /healthz on ${metrics}`);
        if (annotations['prometheus.io/port'] !== String(metrics))
          p.push(`${cw}: scrape port is not ${metrics}`);
        if (!env.has('LOOKOUT_AGENT_TOKEN')) p.push(`${cw}: no LOOKOUT_AGENT_TOKEN`);
        regions.push(env.get('LOOKOUT_AGENT_REGION') ?? '');
        // The control-plane URL is a Service here whose port leads to the control plane's rpc port.
        const [target] = urlHosts(env.get('LOOKOUT_AGENT_CONTROL_PLANE_URL') ?? '');
        const svcName = target?.host.replace(
          new RegExp(`\\.${NAMESPACE}(\\.svc(\\.cluster\\.local)?)?$`),
          '',
        );
        const svc = ofKind('Service').find((s) => nameOf(s) === svcName);
        const svcPort = arr(obj(svc?.spec).ports)
          .map(obj)
          .find((x) => Number(x.port) === target?.port);
        const backing = deployments.find((x) =>
          selects(obj(svc?.spec).selector, obj(x.template.metadata).labels),
        );
        if (
          !svc ||
          !svcPort ||
          !backing ||
          resolvePort(backing, svcPort.targetPort) !== Number(portsOf(backing).get('rpc'))
        )
          p.push(`${cw}: LOOKOUT_AGENT_CONTROL_PLANE_URL does not lead to the control plane's rpc port`);
      }
      if (annotations['prometheus.io/path'] !== '/metrics')
        p.push(`${cw}: prometheus.io/path is not /metrics`);
      const res = obj(c.resources);
      for (const part of ['requests', 'limits'])
        for (const r of ['cpu', 'memory']) if (!obj(res[part])[r]) p.push(`${cw}: no resources.${part}.${r}`);
      const sc = obj(c.securityContext);
      if (sc.runAsNonRoot !== true && podSec.runAsNonRoot !== true) p.push(`${cw}: runAsNonRoot is not set`);
      if (sc.allowPrivilegeEscalation !== false) p.push(`${cw}: allowPrivilegeEscalation must be false`);
      if (sc.readOnlyRootFilesystem !== true) p.push(`${cw}: readOnlyRootFilesystem must be true`);
      if (!arr(obj(sc.capabilities).drop).includes('ALL')) p.push(`${cw}: capabilities must drop ALL`);
    }
  }
  const controlPlanes = deployments.filter((d) => kinds.get(d.name) === 'control-plane');
  if (controlPlanes.length !== 1)
    p.push(`expected one control-plane Deployment, found ${controlPlanes.length}`);
  if (new Set(regions).size < 2)
    p.push(`expected agent Deployments for two regions, found ${regions.join(', ')}`);

  for (const svc of ofKind('Service')) {
    const spec = obj(svc.spec);
    const backing = deployments.find((d) => selects(spec.selector, obj(d.template.metadata).labels));
    if (!backing) {
      p.push(`Service ${nameOf(svc)}: selects no Deployment`);
      continue;
    }
    for (const port of arr(spec.ports).map(obj)) {
      const target = resolvePort(backing, port.targetPort ?? port.port);
      if (![...portsOf(backing).values()].includes(Number(target)))
        p.push(
          `Service ${nameOf(svc)}: targetPort ${str(port.targetPort)} is no container port of ${backing.name}`,
        );
      if (target === portsOf(backing).get('rpc') && port.appProtocol !== 'kubernetes.io/h2c')
        p.push(`Service ${nameOf(svc)}: the gRPC port needs appProtocol kubernetes.io/h2c`);
    }
  }
  for (const pdb of ofKind('PodDisruptionBudget')) {
    const spec = obj(pdb.spec);
    const target = deployments.find((d) =>
      selects(obj(spec.selector).matchLabels, obj(d.template.metadata).labels),
    );
    if (!target) p.push(`PodDisruptionBudget ${nameOf(pdb)}: selects no Deployment`);
    else {
      const replicas = Number(target.spec.replicas ?? 1);
      const allowed =
        spec.maxUnavailable !== undefined
          ? Number(spec.maxUnavailable)
          : replicas - Number(spec.minAvailable);
      if (!(allowed >= 1 && allowed < replicas))
        p.push(`PodDisruptionBudget ${nameOf(pdb)}: lets ${allowed} of ${replicas} go`);
    }
  }
  const cpPdb = ofKind('PodDisruptionBudget').some((pdb) =>
    controlPlanes.some((d) =>
      selects(obj(obj(pdb.spec).selector).matchLabels, obj(d.template.metadata).labels),
    ),
  );
  if (!cpPdb) p.push('no PodDisruptionBudget for the control plane');
  for (const ing of ofKind('Ingress'))
    for (const rule of arr(obj(ing.spec).rules).map(obj))
      for (const path of arr(obj(rule.http).paths).map(obj)) {
        const backend = obj(obj(path.backend).service);
        const svc = ofKind('Service').find((s) => nameOf(s) === backend.name);
        const port = obj(backend.port);
        const ok = arr(obj(svc?.spec).ports)
          .map(obj)
          .some((x) =>
            port.name !== undefined ? x.name === port.name : Number(x.port) === Number(port.number),
          );
        if (!ok)
          p.push(
            `Ingress ${nameOf(ing)}: backend ${str(backend.name)}:${str(port.name ?? port.number)} does not exist`,
          );
      }
  return p;
};

// ---------------------------------------------------------------------------------------------------
// systemd

const SYSTEMD_UNIT = 'deploy/systemd/lookout-agent.service';
const SYSTEMD_ENV = 'deploy/systemd/lookout-agent.env.example';
const parseUnit = (text: string) => {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[(\w+)\]$/.exec(line);
    if (head) {
      current = new Map();
      sections.set(head[1]!, current);
    } else if (current) {
      const i = line.indexOf('=');
      const k = line.slice(0, i).trim();
      current.set(k, [...(current.get(k) ?? []), line.slice(i + 1).trim()]);
    }
  }
  return sections;
};
const parseEnvFile = (text: string) =>
  new Map(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
  );
const seconds = (v: string) => {
  const m = /^(\d+)\s*(ms|s|min)?$/.exec(v);
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === 'ms' ? 0.001 : m[2] === 'min' ? 60 : 1);
};

const systemdProblems = (unitText: string, envText: string): string[] => {
  const p: string[] = [];
  const unit = parseUnit(unitText);
  for (const s of ['Unit', 'Service', 'Install']) if (!unit.has(s)) p.push(`no [${s}] section`);
  const get = (s: string, k: string) => unit.get(s)?.get(k)?.at(-1) ?? '';
  const exec = get('Service', 'ExecStart').split(/\s+/);
  const dir = get('Service', 'WorkingDirectory');
  if (!/\/node$/.test(exec[0] ?? '')) p.push(`ExecStart does not run node: ${exec[0]}`);
  const entry = exec[1]?.startsWith(`${dir}/`) ? exec[1].slice(dir.length + 1) : '';
  if (entry !== 'agent/dist/main.js' || !sourceOf(entry))
    p.push(`ExecStart ${exec[1]} is not the agent under ${dir}`);
  if (get('Service', 'EnvironmentFile') !== '/etc/lookout/agent.env')
    p.push('EnvironmentFile is not /etc/lookout/agent.env');
  const env = parseEnvFile(envText);
  p.push(...envProblems(SYSTEMD_ENV, 'agent', env.keys()));
  for (const n of ['LOOKOUT_AGENT_CONTROL_PLANE_URL', 'LOOKOUT_AGENT_TOKEN', 'LOOKOUT_AGENT_REGION'])
    if (!env.has(n)) p.push(`${SYSTEMD_ENV}: ${n} is missing`);
  const expect = (s: string, k: string, v: RegExp) => {
    if (!v.test(get(s, k))) p.push(`[${s}] ${k}=${get(s, k)} (want ${v.source})`);
  };
  expect('Service', 'Restart', /^on-failure$/);
  expect('Service', 'KillSignal', /^SIGTERM$/);
  expect('Service', 'NoNewPrivileges', /^(yes|true)$/);
  expect('Service', 'ProtectSystem', /^strict$/);
  expect('Service', 'PrivateTmp', /^(yes|true)$/);
  expect('Service', 'ProtectHome', /^(yes|true|read-only|tmpfs)$/);
  expect('Install', 'WantedBy', /\bmulti-user\.target\b/);
  expect('Unit', 'After', /\bnetwork-online\.target\b/);
  expect('Unit', 'Wants', /\bnetwork-online\.target\b/);
  if (!/^(yes|true)$/.test(get('Service', 'DynamicUser')) && !/^(?!root$)\w+/.test(get('Service', 'User')))
    p.push('neither DynamicUser=yes nor a User other than root');
  if (/^(yes|true)$/.test(get('Service', 'MemoryDenyWriteExecute')))
    p.push('MemoryDenyWriteExecute breaks the V8 JIT');
  const grace = Number(agentSetting(new Map(env), 'shutdown_grace_ms')) / 1000;
  const stop = seconds(get('Service', 'TimeoutStopSec'));
  if (!(stop > grace))
    p.push(`TimeoutStopSec=${get('Service', 'TimeoutStopSec')} is not above the agent's ${grace}s grace`);
  return p;
};

// ---------------------------------------------------------------------------------------------------

const composeDoc = () => loadAll(read(COMPOSE))[0];
const haproxyFrom = (file: string) => {
  const p = join(ROOT, 'deploy/compose', file);
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
};

describe('deploy/ (offline validation)', () => {
  it('finds the files it checks', () => {
    expect(dockerfiles.map((d) => d.path).sort()).toEqual([
      'deploy/docker/agent.Dockerfile',
      'deploy/docker/control-plane.Dockerfile',
    ]);
    expect(yamlFiles).toContain(COMPOSE);
    expect(k8sFiles.length).toBeGreaterThanOrEqual(5);
    expect(deployFiles).toContain(SYSTEMD_UNIT);
  });

  it('parses every YAML file under deploy/', () => {
    for (const f of yamlFiles) {
      const docs = loadAll(read(f));
      expect(docs.length, f).toBeGreaterThan(0);
      for (const d of docs) expect(isObj(d), `${f}: every document is a mapping`).toBe(true);
    }
  });

  it('uses only LOOKOUT_* names that the control plane or the agent reads', () => {
    const problems = [...deployFiles, 'docs/deploy.md'].flatMap((f) => lookoutNameProblems(f, read(f)));
    expect(problems).toEqual([]);
  });

  it('Dockerfiles: multi-stage from node:20-bookworm-slim, non-root, COPY sources and stages exist, CMD is built', () => {
    expect(dockerfiles.map((d) => d.kind).sort()).toEqual(['agent', 'control-plane']);
    expect(dockerfiles.flatMap(dockerfileProblems)).toEqual([]);
  });

  it('.dockerignore keeps out dependencies, build output and local data, but not the sources', () => {
    for (const p of ['node_modules', 'agent/node_modules', 'control-plane/dist', 'data/lookout.db', '.git'])
      expect(ignoredByDocker(p), p).toBe(true);
    for (const p of [
      'package-lock.json',
      'control-plane/src/main.ts',
      'agent/src/main.ts',
      'proto/src/index.ts',
    ])
      expect(ignoredByDocker(p), p).toBe(false);
  });

  it('compose: replica set, two control planes behind HAProxy, agents in two regions, all cross-references resolve', () => {
    expect(composeProblems(composeDoc(), haproxyFrom)).toEqual([]);
  });

  it('refers to the Lookout images by the names the Dockerfiles build, all with one tag', () => {
    const names = [...imageKinds.keys()].map((n) => n.replace(/[/.]/g, '\\$&')).join('|');
    const refs = [...deployFiles, 'docs/deploy.md'].flatMap((f) =>
      [...read(f).matchAll(new RegExp(`(?<![\\w/.-])(${names})(?::([\\w.-]+))?`, 'g'))].map(
        (m) => `${f}: ${m[0]}`,
      ),
    );
    const inManifests = refs.filter((r) => /\.ya?ml: /.test(r));
    expect(inManifests.length).toBeGreaterThanOrEqual(5);
    const tags = new Set(inManifests.map((r) => r.split(':').at(-1)));
    expect(tags.size, inManifests.join('\n')).toBe(1);
    const untagged = inManifests.filter((r) => !/:[\w.-]+$/.test(r.slice(r.indexOf(': ') + 2)));
    expect(untagged).toEqual([]);
    const documented = refs.filter(
      (r) => r.startsWith('docs/deploy.md') && /:[\w.-]+$/.test(r.slice(r.indexOf(': ') + 2)),
    );
    expect(new Set(documented.map((r) => r.split(':').at(-1)))).toEqual(tags);
  });

  it('Kubernetes: images, env, ports, probes, Services, PDB, resources and security contexts agree', () => {
    expect(k8sProblems(k8sDocs())).toEqual([]);
  });

  it('systemd: the unit runs the built agent, drains on SIGTERM within TimeoutStopSec, and is sandboxed', () => {
    expect(systemdProblems(read(SYSTEMD_UNIT), read(SYSTEMD_ENV))).toEqual([]);
  });

  it('docs/deploy.md covers every file under deploy/ and builds the images under the names used', () => {
    const doc = read('docs/deploy.md');
    expect(deployFiles.filter((f) => !doc.includes(f))).toEqual([]);
    for (const d of dockerfiles) expect(doc).toContain(`-f ${d.path} -t ${d.image}:`);
    expect(read('README.md')).toContain('docs/deploy.md');
    expect(read('docs/architecture.md')).toContain('docs/deploy.md');
  });

  describe('the checks fail on broken input', () => {
    it('compose: an unknown setting, a missing service, a wrong port', () => {
      const doc = composeDoc() as { services: Record<string, Obj> };
      const broken = structuredClone(doc);
      const cp = broken.services['control-plane-1']!;
      cp.environment = { ...obj(cp.environment), LOOKOUT_HTTP_PROT: '8080' };
      broken.services['agent-us-east-1']!.environment = {
        ...obj(broken.services['agent-us-east-1']!.environment),
        LOOKOUT_AGENT_CONTROL_PLANE_URL: 'http://lb:9999',
      };
      broken.services.lb!.depends_on = ['control-plane-3'];
      const problems = composeProblems(broken, haproxyFrom).join('\n');
      expect(problems).toMatch(/LOOKOUT_HTTP_PROT is not a setting of the control-plane/);
      expect(problems).toMatch(/unknown service control-plane-3/);
      expect(problems).toMatch(/agent-us-east-1: LOOKOUT_AGENT_CONTROL_PLANE_URL lb:9999/);
      const badLb = (file: string) =>
        haproxyFrom(file)?.replace('control-plane-2:8081', 'control-plane-2:8082') ?? null;
      expect(composeProblems(doc, badLb).join('\n')).toMatch(/control-plane-2 does not listen on 8082/);
    });

    it('Kubernetes: a wrong probe path, a missing Secret, a Service to nowhere', () => {
      const docs = structuredClone(k8sDocs());
      const cp = docs.find(
        (d) => d.doc.kind === 'Deployment' && str(obj(d.doc.metadata).name).includes('control'),
      )!;
      const container = obj(arr(obj(obj(obj(cp.doc.spec).template).spec).containers)[0]);
      obj(obj(container.readinessProbe).httpGet).path = '/ready';
      const secret = docs.find(
        (d) => d.doc.kind === 'Secret' && obj(d.doc.metadata).name === 'lookout-secrets',
      )!;
      obj(secret.doc.metadata).name = 'renamed';
      const svc = docs.find((d) => d.doc.kind === 'Service')!;
      obj(svc.doc.spec).selector = { app: 'nothing' };
      const problems = k8sProblems(docs).join('\n');
      expect(problems).toMatch(/readinessProbe must GET \/readyz/);
      expect(problems).toMatch(/LOOKOUT_MONGODB_URI from missing lookout-secrets/);
      expect(problems).toMatch(/selects no Deployment/);
    });

    it('Dockerfile: a missing stage, a CMD that is never built, running as root', () => {
      const text = read('deploy/docker/control-plane.Dockerfile')
        .replace('--from=deps', '--from=dependencies')
        .replace('control-plane/dist/main.js"]', 'control-plane/dist/mian.js"]')
        .replace(/^USER .*$/m, 'USER root');
      const problems = dockerfileProblems(parseDockerfile('x.Dockerfile', text)).join('\n');
      expect(problems).toMatch(/no earlier stage named "dependencies"/);
      expect(problems).toMatch(/mian\.js is not compiled from a file in the repository/);
      expect(problems).toMatch(/runs as root/);
    });

    it('systemd: no SIGTERM, a short stop timeout, an unknown setting', () => {
      const unit = read(SYSTEMD_UNIT)
        .replace(/^KillSignal=.*$/m, '')
        .replace(/^TimeoutStopSec=.*$/m, 'TimeoutStopSec=5s');
      const problems = systemdProblems(unit, `${read(SYSTEMD_ENV)}\nLOOKOUT_AGENT_TOKN=x\n`).join('\n');
      expect(problems).toMatch(/KillSignal/);
      expect(problems).toMatch(/TimeoutStopSec=5s/);
      expect(problems).toMatch(/LOOKOUT_AGENT_TOKN is not a setting of the agent/);
    });
  });
});
