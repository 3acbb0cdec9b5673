import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { agentConfigKeys, agentEnvName } from '../../../agent/src/config.js';
import { configKeys, envName } from '../../../control-plane/src/config.js';

/** What every deploy/ check shares: the files, the settings the code reads, small helpers. */

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

/** The documented runtime: the Node.js major that package.json's `engines` starts at (">=22.12" → 22). */
export const NODE_MAJOR = Number(
  /^>=\s*(\d+)\./.exec((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node)?.[1],
);

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
export const deployFiles = walk(join(ROOT, 'deploy')).map((p) => relative(ROOT, p).split('\\').join('/'));
export const yamlFiles = deployFiles.filter((p) => /\.ya?ml$/.test(p));

// What the code accepts

export type Kind = 'control-plane' | 'agent';
const keyDefault = (keys: object, key: string): unknown =>
  (keys as Record<string, { default?: unknown }>)[key]?.default;
export const CP_ENV = new Set([...Object.keys(configKeys).map(envName), 'LOOKOUT_CONFIG_FILE']);
export const AGENT_ENV = new Set(Object.keys(agentConfigKeys).map(agentEnvName));
/** Variables that are not Lookout settings but are fine to set on a Node.js container (glibc's too). */
const OTHER_ENV = new Set(['NODE_ENV', 'NODE_OPTIONS', 'MALLOC_ARENA_MAX']);
const envNamesOf = (kind: Kind) => (kind === 'control-plane' ? CP_ENV : AGENT_ENV);

export const envProblems = (where: string, kind: Kind, names: Iterable<string>) =>
  [...names]
    .filter((n) => !envNamesOf(kind).has(n) && !OTHER_ENV.has(n))
    .map((n) => `${where}: ${n} is not a setting of the ${kind}`);

/** Typed settings a deployment resolves: the value it sets, else the loader's default. */
export const cpSetting = (env: Map<string, string>, key: keyof typeof configKeys) =>
  env.get(envName(key)) || str(keyDefault(configKeys, key));
export const agentSetting = (env: Map<string, string>, key: string) =>
  env.get(agentEnvName(key)) || str(keyDefault(agentConfigKeys, key));

/** Every LOOKOUT_* word in a text: each must be a setting of the control plane or of the agent. */
export const lookoutNameProblems = (file: string, text: string) =>
  [...new Set(text.match(/\bLOOKOUT_[A-Z0-9_]*[A-Z0-9]\b/g) ?? [])]
    .filter((n) => !CP_ENV.has(n) && !AGENT_ENV.has(n))
    .map((n) => `${file}: ${n} is neither a control-plane nor an agent setting`);

/** `control-plane/dist/main.js` → `control-plane/src/main.ts` (rootDir src, outDir dist), if it exists. */
export const sourceOf = (distPath: string): string | null => {
  const m = /^([\w-]+)\/dist\/(.+)\.js$/.exec(distPath);
  if (!m || !existsSync(join(ROOT, m[1]!, 'tsconfig.json'))) return null;
  const tsconfig = JSON.parse(read(`${m[1]}/tsconfig.json`)) as { compilerOptions?: Obj };
  if (tsconfig.compilerOptions?.outDir !== 'dist' || tsconfig.compilerOptions?.rootDir !== 'src') return null;
  const src = `${m[1]}/src/${m[2]}.ts`;
  return existsSync(join(ROOT, src)) ? src : null;
};

/** Hosts and ports of a URL (several for a MongoDB seed list), with the scheme's default port. */
export const urlHosts = (url: string) => {
  const m = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]+)/.exec(url);
  const defaultPort = url.startsWith('mongodb') ? 27017 : url.startsWith('https') ? 443 : 80;
  return (m?.[1] ?? '').split(',').map((hp) => {
    const [host, port] = hp.split(':');
    return { host: host!, port: port ? Number(port) : defaultPort };
  });
};
