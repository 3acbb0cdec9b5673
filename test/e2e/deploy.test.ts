import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import {
  arr,
  deployFiles,
  isObj,
  lookoutNameProblems,
  NODE_MAJOR,
  type Obj,
  obj,
  ROOT,
  read,
  str,
  yamlFiles,
} from '../support/deploy/common.js';
import { COMPOSE, composeProblems } from '../support/deploy/compose.js';
import {
  dockerfileProblems,
  dockerfiles,
  ignoredByDocker,
  imageKinds,
  parseDockerfile,
} from '../support/deploy/docker.js';
import { k8sDocs, k8sFiles, k8sProblems } from '../support/deploy/k8s.js';
import { SYSTEMD_ENV, SYSTEMD_UNIT, systemdProblems } from '../support/deploy/systemd.js';
import { CI_WORKFLOW, workflowProblems } from '../support/deploy/workflow.js';

/**
 * Offline checks of deploy/ (no Docker daemon, no cluster here): the Dockerfiles, the compose file,
 * its HAProxy config, the Kubernetes manifests, the systemd unit and the public CI workflow agree with
 * each other and with the code (and the Node.js release that package.json's engines documents): env names exist in the config loaders, images are the ones the Dockerfiles build, ports
 * and probes match the configured ports, names referenced exist. The files are read with real
 * parsers (test/support/deploy/); whether HAProxy and systemd accept them is checked by those
 * programs themselves in test/peers/deploy-tools.test.ts. Each check returns a list of problems; the
 * last block feeds it broken copies to show it can fail.
 */

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

  it(`Dockerfiles: multi-stage from node:${NODE_MAJOR}-bookworm-slim (engines), non-root, COPY sources and stages exist, CMD is built`, () => {
    expect(dockerfiles.map((d) => d.kind).sort()).toEqual(['agent', 'control-plane']);
    expect(dockerfiles.flatMap(dockerfileProblems)).toEqual([]);
  });

  it('the control plane runs with two malloc arenas: its image and `npm start` (docs/decisions.md, "Memory knobs")', () => {
    const image = read('deploy/docker/control-plane.Dockerfile');
    const finalStage = image.slice(image.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(/^\s+MALLOC_ARENA_MAX=2 \\$/m);
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toMatch(/MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX-2\} .*node control-plane\/dist\/main\.js/);
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

  it(`Node.js ${NODE_MAJOR} LTS is the documented runtime: engines, images, README and the public CI, which tests ${NODE_MAJOR} and ${NODE_MAJOR + 2} and keeps the MongoDB job`, () => {
    expect(NODE_MAJOR).toBe(22);
    expect(workflowProblems(load(read(CI_WORKFLOW)))).toEqual([]);
    expect(read('README.md')).toContain(`Node.js ${NODE_MAJOR} LTS`);
    expect(read('docs/deploy.md')).toContain(`node:${NODE_MAJOR}-bookworm-slim`);
    expect(read(SYSTEMD_UNIT)).toContain(`Node.js ${NODE_MAJOR} LTS at /usr/bin/node`);
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

    it('CI workflow and images: another Node.js, a job without the matrix, no MongoDB job', () => {
      const doc = load(read(CI_WORKFLOW)) as { jobs: Record<string, Obj> };
      const broken = structuredClone(doc);
      obj(obj(broken.jobs.test!.strategy).matrix).node = [20, 22];
      const setup = arr(broken.jobs.test!.steps)
        .map(obj)
        .find((s) => str(s.uses).startsWith('actions/setup-node'))!;
      obj(setup.with)['node-version'] = 20;
      delete broken.jobs['mongodb-contract'];
      const problems = workflowProblems(broken).join('\n');
      expect(problems).toMatch(/test: node-version 20 is not the matrix's/);
      expect(problems).toMatch(/test: tests Node 20, 22, not 22 and 24/);
      expect(problems).toMatch(/no job runs anything with LOOKOUT_MONGODB_URI set/);
      const old = read('deploy/docker/agent.Dockerfile').replace(
        /node:\d+-bookworm-slim/,
        'node:20-bookworm-slim',
      );
      expect(dockerfileProblems(parseDockerfile('x.Dockerfile', old)).join('\n')).toMatch(
        /stage build is FROM node:20-bookworm-slim, not node:22-bookworm-slim/,
      );
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
