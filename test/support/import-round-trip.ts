import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runConfigCommand } from '../../control-plane/src/config-as-code/commands.js';
import { KINDS } from '../../control-plane/src/config-as-code/kinds/index.js';
import type { ImportOutcome } from '../../control-plane/src/importers/import-outcome.js';
import { renderImport } from '../../control-plane/src/importers/render-import.js';
import type { Harness } from './harness.js';

/**
 * An importer's outcome through the real commands on a fresh workspace of the harness: rendered as
 * `npx lookout import` writes it, `plan` (exit 2: changes), `apply` (exit 0), `plan` again (exit 0:
 * nothing left to change), then `export`, and what was imported compared with what was exported.
 * Secrets are given values (`secretValue`) as the user would set them before plan and apply.
 */
export interface RoundTrip {
  /** The rendered file's text. */
  text: string;
  /** The file as imported and as exported, parsed. */
  imported: Record<string, unknown>;
  exported: Record<string, unknown>;
  /** Every difference found: empty when the round trip holds. */
  differences: string[];
  /** What each command printed, for a failing test's message. */
  log: string;
}

const ENV_ONLY = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** A value a secret variable could hold, shaped for its field (a URL where a URL is asked for). */
export const defaultSecretValue = (env: string) => {
  if (/ROUTING_KEY$/.test(env)) return 'R'.repeat(32); // PagerDuty: 32 letters and digits
  if (/PUSHOVER_CONFIG_(USER_KEY|APP_TOKEN)$/.test(env)) return 'P'.repeat(30); // Pushover: 30
  if (/URL|WEBHOOK|HOOK/.test(env)) return `https://hooks.example.com/${env.toLowerCase()}`;
  return `secret-${env.toLowerCase()}`;
};

/**
 * Whether `exported` holds every value of `imported` (deep; extra fields the API fills in with
 * defaults are allowed). A `${NAME}` on either side is a secret: matched by presence only.
 */
export const subsetDifferences = (imported: unknown, exported: unknown, at: string): string[] => {
  if (typeof imported === 'string' && ENV_ONLY.test(imported))
    return exported === undefined ? [`${at}: missing`] : [];
  if (typeof exported === 'string' && ENV_ONLY.test(exported)) return [];
  if (Array.isArray(imported)) {
    if (!Array.isArray(exported) || exported.length !== imported.length)
      return [`${at}: imported ${JSON.stringify(imported)}, exported ${JSON.stringify(exported)}`];
    return imported.flatMap((v, i) => subsetDifferences(v, exported[i], `${at}[${i}]`));
  }
  if (imported && typeof imported === 'object') {
    if (!exported || typeof exported !== 'object' || Array.isArray(exported))
      return [`${at}: imported ${JSON.stringify(imported)}, exported ${JSON.stringify(exported)}`];
    return Object.entries(imported).flatMap(([k, v]) =>
      subsetDifferences(v, (exported as Record<string, unknown>)[k], `${at}.${k}`),
    );
  }
  // A literal `${` is written `$${` in both files: equal as text.
  return Object.is(imported, exported)
    ? []
    : [`${at}: imported ${JSON.stringify(imported)}, exported ${JSON.stringify(exported)}`];
};

/**
 * Items of both files matched by kind and name: every imported item must come back as imported, and
 * nothing else may appear but what the fresh workspace had before (`before`: its default policy).
 */
export const compareFiles = (
  imported: Record<string, unknown>,
  exported: Record<string, unknown>,
  before: Record<string, unknown> = {},
) => {
  const differences: string[] = [];
  for (const kind of KINDS) {
    const mine = (imported[kind.key] ?? []) as Record<string, unknown>[];
    const theirs = (exported[kind.key] ?? []) as Record<string, unknown>[];
    for (const item of mine) {
      const name = item[kind.nameField];
      const back = theirs.find((t) => t[kind.nameField] === name);
      if (!back) differences.push(`${kind.key} "${String(name)}": not in the export`);
      else differences.push(...subsetDifferences(item, back, `${kind.key} "${String(name)}"`));
    }
    const had = ((before[kind.key] ?? []) as Record<string, unknown>[]).map((b) => b[kind.nameField]);
    for (const t of theirs) {
      const name = t[kind.nameField];
      if (!had.includes(name) && !mine.some((m) => m[kind.nameField] === name))
        differences.push(`${kind.key} "${String(name)}": exported, but neither imported nor there before`);
    }
  }
  return differences;
};

export const importRoundTrip = async (
  h: Harness,
  outcome: ImportOutcome,
  opts: { source: string; subdomain: string; plan?: string; secretValue?: (env: string) => string },
): Promise<RoundTrip> => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-import-'));
  try {
    const w = await h.workspace(opts.subdomain, opts.plan);
    const rendered = renderImport(outcome, { source: opts.source, now: h.clock.now() });
    if (rendered.problems.length)
      throw new Error(`the rendered file would not pass plan: ${JSON.stringify(rendered.problems)}`);
    const file = join(dir, 'imported.yaml');
    writeFileSync(file, rendered.text);
    const secretValue = opts.secretValue ?? defaultSecretValue;
    let log = '';
    const io = {
      env: {
        LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`,
        LOOKOUT_API_KEY: w.adminKey,
        ...Object.fromEntries(outcome.secrets.map((s) => [s.env, secretValue(s.env)])),
      },
      out: (t: string) => {
        log += `${t}\n`;
      },
      err: (t: string) => {
        log += `${t}\n`;
      },
      now: () => h.clock.now(),
    };
    const differences: string[] = [];
    const step = async (command: 'plan' | 'apply' | 'export', want: number, flags = {}) => {
      log += `$ lookout ${command}\n`;
      const code = await runConfigCommand(command, flags, io);
      if (code !== want) differences.push(`${command} exited ${code}, not ${want}`);
    };
    const readExport = async (name: string) => {
      const out = join(dir, name);
      await step('export', 0, { output: out });
      try {
        return (parse(readFileSync(out, 'utf8')) ?? {}) as Record<string, unknown>;
      } catch (e) {
        differences.push(`export: ${(e as Error).message}`);
        return {};
      }
    };
    const before = await readExport('before.yaml');
    await step('plan', 2, { file });
    await step('apply', 0, { file });
    await step('plan', 0, { file });
    const exported = await readExport('exported.yaml');
    const imported = parse(rendered.text) as Record<string, unknown>;
    differences.push(...compareFiles(imported, exported, before));
    return { text: rendered.text, imported, exported, differences, log };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
