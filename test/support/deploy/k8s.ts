import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { loadAll } from 'js-yaml';
import {
  agentSetting,
  arr,
  cpSetting,
  envProblems,
  isObj,
  type Kind,
  type Obj,
  obj,
  ROOT,
  read,
  str,
  urlHosts,
  yamlFiles,
} from './common.js';
import { kindOfImage, tagOf } from './docker.js';

/**
 * deploy/k8s, parsed with js-yaml: images, env, ports, probes, Services, PDBs, resources and security
 * contexts agree with each other and with the config loaders. (No cluster here: what `kubectl
 * apply --dry-run=server` would say is out of reach; these are the checks of our own intent.)
 */

const NAMESPACE = 'lookout';
export const k8sFiles = yamlFiles.filter((f) => f.startsWith('deploy/k8s/'));
export const k8sDocs = () =>
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

export const k8sProblems = (docs: { file: string; doc: Obj }[]): string[] => {
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
