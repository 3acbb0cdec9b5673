import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import {
  agentSetting,
  arr,
  cpSetting,
  envProblems,
  type Kind,
  type Obj,
  obj,
  ROOT,
  str,
  urlHosts,
} from './common.js';
import { imageKinds, kindOfImage, repoOf, tagOf } from './docker.js';

/**
 * deploy/compose: the compose file (parsed with js-yaml by the caller) and its HAProxy config agree
 * with each other and with the code: settings exist, ports are the configured ones, names resolve.
 */

interface Haproxy {
  frontends: Map<string, { ports: number[]; backend: string; h2: boolean }>;
  backends: Map<
    string,
    { servers: { name: string; host: string; port: number; opts: string }[]; httpchk: string }
  >;
}
/**
 * Only what the cross-checks below read from our haproxy.cfg (binds, default_backend, servers,
 * httpchk). Whether the file is valid HAProxy configuration is `haproxy -c`'s call, in test:peers.
 */
export const parseHaproxy = (text: string): Haproxy => {
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

export const COMPOSE = 'deploy/compose/compose.yaml';
/** `${VAR:-default}` → default (what the file means when nothing is set). */
const interpolate = (v: string) =>
  v.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_, __, def?: string) => def ?? '');
export const composeEnv = (service: Obj) => {
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
export const composeProblems = (doc: unknown, haproxyText: (file: string) => string | null): string[] => {
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
    for (const fe of cfg.frontends.values()) {
      lbPorts.push(...fe.ports);
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
