import { parse } from 'ini';
import { agentSetting, envProblems, obj, sourceOf, str } from './common.js';

/**
 * deploy/systemd, read with `ini` (unit files and EnvironmentFile are INI-shaped). What is checked
 * here is our intent: it runs the built agent, loads the documented env file, drains on SIGTERM
 * within TimeoutStopSec, restarts on failure, keeps the JIT working. Whether systemd accepts the unit
 * and how well it is sandboxed is `systemd-analyze verify` / `security`'s call, in test:peers.
 */

export const SYSTEMD_UNIT = 'deploy/systemd/lookout-agent.service';
export const SYSTEMD_ENV = 'deploy/systemd/lookout-agent.env.example';

/** A systemd time span in seconds (`20s`, `1min`, `500ms`, a bare number of seconds). */
const seconds = (v: string) => {
  const m = /^(\d+)\s*(ms|s|min)?$/.exec(v);
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === 'ms' ? 0.001 : m[2] === 'min' ? 60 : 1);
};

export const systemdProblems = (unitText: string, envText: string): string[] => {
  const p: string[] = [];
  const unit = parse(unitText);
  for (const s of ['Unit', 'Service', 'Install']) if (!unit[s]) p.push(`no [${s}] section`);
  const get = (s: string, k: string) => str(obj(unit[s])[k]).trim();
  const exec = get('Service', 'ExecStart').split(/\s+/);
  const dir = get('Service', 'WorkingDirectory');
  if (!/\/node$/.test(exec[0] ?? '')) p.push(`ExecStart does not run node: ${exec[0]}`);
  const entry = exec[1]?.startsWith(`${dir}/`) ? exec[1].slice(dir.length + 1) : '';
  if (entry !== 'agent/dist/main.js' || !sourceOf(entry))
    p.push(`ExecStart ${exec[1]} is not the agent under ${dir}`);
  if (get('Service', 'EnvironmentFile') !== '/etc/lookout/agent.env')
    p.push('EnvironmentFile is not /etc/lookout/agent.env');
  const env = new Map(Object.entries(parse(envText)).map(([k, v]) => [k, str(v)]));
  p.push(...envProblems(SYSTEMD_ENV, 'agent', env.keys()));
  for (const n of ['LOOKOUT_AGENT_CONTROL_PLANE_URL', 'LOOKOUT_AGENT_TOKEN', 'LOOKOUT_AGENT_REGION'])
    if (!env.has(n)) p.push(`${SYSTEMD_ENV}: ${n} is missing`);
  const expect = (s: string, k: string, v: RegExp) => {
    if (!v.test(get(s, k))) p.push(`[${s}] ${k}=${get(s, k)} (want ${v.source})`);
  };
  expect('Service', 'Restart', /^on-failure$/);
  expect('Service', 'KillSignal', /^SIGTERM$/);
  expect('Install', 'WantedBy', /\bmulti-user\.target\b/);
  expect('Unit', 'After', /\bnetwork-online\.target\b/);
  expect('Unit', 'Wants', /\bnetwork-online\.target\b/);
  if (/^(yes|true)$/.test(get('Service', 'MemoryDenyWriteExecute')))
    p.push('MemoryDenyWriteExecute breaks the V8 JIT');
  const grace = Number(agentSetting(env, 'shutdown_grace_ms')) / 1000;
  const stop = seconds(get('Service', 'TimeoutStopSec'));
  if (!(stop > grace))
    p.push(`TimeoutStopSec=${get('Service', 'TimeoutStopSec')} is not above the agent's ${grace}s grace`);
  return p;
};
