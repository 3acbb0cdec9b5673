import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ApiError, createLookoutClient } from '../api-client/client.js';
import { nodeFetch } from '../api-client/node-fetch.js';
import { apiBase } from '../mcp/settings.js';
import { ApplyFailed, applyPlan } from './apply.js';
import { exportConfig } from './export.js';
import { isSecretField } from './kinds/index.js';
import { makePlan, RoleRefusal } from './plan.js';
import { renderPlan } from './render-plan.js';
import { resolveScriptFiles } from './script-files.js';
import { FileProblems, readConfigSource } from './yaml-source.js';

/**
 * `npx lookout export | plan -f FILE | apply -f FILE [--prune]`: configuration as code, through the
 * public API only (LOOKOUT_API_URL and LOOKOUT_API_KEY, or SERVICE_API_URL and SERVICE_API_KEY).
 * Exit codes: 0 done (plan: nothing to change), 2 plan has changes, 1 anything refused or wrong, with
 * every problem on stderr.
 */
export interface ConfigCommandIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  now: () => Date;
}

export class ConfigCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigCommandError';
  }
}

const connect = (env: ConfigCommandIo['env']) => {
  const key = env.LOOKOUT_API_KEY?.trim() || env.SERVICE_API_KEY?.trim() || '';
  const address = env.LOOKOUT_API_URL?.trim() || env.SERVICE_API_URL?.trim() || '';
  const problems: string[] = [];
  if (!key) problems.push('no API key: set LOOKOUT_API_KEY (or SERVICE_API_KEY)');
  const base = address ? apiBase(address) : null;
  if (!address)
    problems.push(
      "no workspace address: set LOOKOUT_API_URL (or SERVICE_API_URL) to your workspace's address, e.g. https://acme.lookout.example.com",
    );
  else if (!base)
    problems.push(`LOOKOUT_API_URL "${address}" is not an http:// or https:// address of a workspace`);
  if (problems.length || !base) throw new ConfigCommandError(problems.join('; '));
  const api = createLookoutClient({
    baseUrl: base,
    fetch: nodeFetch({ timeoutMs: 120_000 }),
    headers: { 'x-api-key': key, 'user-agent': 'lookout-cli' },
  });
  return { api, apiUrl: base };
};

const readSource = (file: string, env: ConfigCommandIo['env']) => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigCommandError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const source = readConfigSource(file, text, env, isSecretField);
  resolveScriptFiles(source, dirname(file));
  return source;
};

/** One line per problem, `FILE:LINE: path message`, as compilers print them. */
const problemLines = (e: FileProblems) =>
  `${e.problems.map((p) => `${e.file}:${p.line ?? '?'}: ${p.path} ${p.message}`).join('\n')}\n${e.message}`;

/** Runs one command; resolves with its exit code (errors are printed, not thrown). */
export const runConfigCommand = async (
  command: 'export' | 'plan' | 'apply',
  flags: { file?: string; prune?: boolean; output?: string },
  io: ConfigCommandIo,
): Promise<number> => {
  try {
    const { api, apiUrl } = connect(io.env);
    if (command === 'export') {
      const r = await exportConfig(api, { apiUrl, now: io.now() });
      if (flags.output) writeFileSync(flags.output, r.text);
      else io.out(r.text);
      for (const s of r.skipped)
        io.err(`lookout: left out ${s.kind}: the API refuses to list them to this key (${s.reason})`);
      if (r.secrets.length)
        io.err(
          `lookout: the file refers to secrets the API does not show (or that should not sit in git) as \${NAME}; set these where plan or apply must send them (an unset one keeps the workspace's value): ${r.secrets.join(', ')}`,
        );
      return 0;
    }
    if (!flags.file) throw new ConfigCommandError(`${command} needs -f FILE (the configuration file)`);
    const source = readSource(flags.file, io.env);
    const prune = flags.prune === true;
    const plan = await makePlan(api, source, { prune, now: io.now() });
    io.out(renderPlan(plan, { prune }));
    if (command === 'plan') return plan.changes.length ? 2 : 0;
    if (!plan.changes.length) {
      io.out('Nothing to change.');
      return 0;
    }
    const done = await applyPlan(api, plan, io.out);
    io.out(`Applied ${done} change${done === 1 ? '' : 's'}.`);
    return 0;
  } catch (e) {
    if (e instanceof FileProblems) io.err(problemLines(e));
    else if (e instanceof RoleRefusal) io.err(`lookout: ${command} refused: ${e.message}`);
    else if (e instanceof ApplyFailed) {
      const r = e.refusal;
      io.err(
        `lookout: apply ${e.message}${r instanceof ApiError && r.details.length ? ` (${r.details.map((d) => `${d.field} ${d.message}`).join('; ')})` : ''}`,
      );
    } else if (e instanceof ApiError && e.status > 0)
      io.err(
        `lookout: the API refused (${e.status}): ${e.message}${e.details.length ? ` ${e.details.map((d) => `${d.field} ${d.message}`).join('; ')}` : ''}`,
      );
    else io.err(`lookout: ${(e as Error).message}`);
    return 1;
  }
};
