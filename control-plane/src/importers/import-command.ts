import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiBase } from '../mcp/settings.js';
import { countOf, ImportInputError } from './import-source.js';
import { renderImport, shown, unmappedLine } from './render-import.js';
import { IMPORT_SOURCES, importSourceNamed } from './sources.js';

/**
 * `npx lookout import <source> [FILE] [--api-url URL] [--api-key KEY] [-o OUT]`: reads another
 * product's configuration and writes a Lookout configuration file (stdout without -o), to review with
 * `plan` and apply with `apply`. A client-side command: no server, no store. The summary, the
 * settings not imported (with the reason) and the variables to set go to stderr.
 * Exit codes: 0 written; 1 the input cannot be read (or the file made would not pass plan: a bug of
 * the importer, every problem listed, nothing written).
 */
export interface ImportCommandIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  now: () => Date;
}

export interface ImportFlags {
  file?: string;
  output?: string;
  apiUrl?: string;
  apiKey?: string;
}

export const importUsage = () => IMPORT_SOURCES.map((s) => `  import ${s.name} ${s.usage}`).join('\n');

export const runImportCommand = async (
  sourceName: string | undefined,
  flags: ImportFlags,
  io: ImportCommandIo,
): Promise<number> => {
  const source = sourceName ? importSourceNamed(sourceName) : undefined;
  if (!source) {
    io.err(
      `lookout: ${sourceName ? `no importer "${sourceName}"` : 'import needs a source'}; one of:\n${importUsage()}\n  [-o OUT] writes the file (stdout without it)`,
    );
    return 1;
  }
  if (flags.output && flags.file && resolve(flags.output) === resolve(flags.file)) {
    io.err(
      `lookout: import ${source.name}: -o ${flags.output} is the input itself; write the file elsewhere`,
    );
    return 1;
  }
  let outcome: Awaited<ReturnType<typeof source.read>>;
  try {
    outcome = await source.read({
      ...(flags.file !== undefined ? { file: flags.file } : {}),
      ...(flags.apiUrl !== undefined ? { apiUrl: flags.apiUrl } : {}),
      ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
      env: io.env,
    });
  } catch (e) {
    if (!(e instanceof ImportInputError)) throw e;
    io.err(`lookout: import ${source.name}: ${e.message}`);
    return 1;
  }
  const address = io.env.LOOKOUT_API_URL?.trim() || io.env.SERVICE_API_URL?.trim() || '';
  const rendered = renderImport(outcome, {
    source: source.label,
    now: io.now(),
    apiBase: address ? apiBase(address) : null,
  });
  if (rendered.problems.length) {
    io.err(
      `lookout: import ${source.name}: the file made would not pass plan (a bug of the importer; nothing written):\n${rendered.problems
        .map((p) => `  ${p.path}${p.line ? ` (line ${p.line})` : ''}: ${p.message}`)
        .join('\n')}`,
    );
    return 1;
  }
  if (flags.output) {
    try {
      writeFileSync(flags.output, rendered.text);
    } catch (e) {
      io.err(`lookout: cannot write ${flags.output}: ${(e as Error).message}`);
      return 1;
    }
  } else io.out(rendered.text);
  const counts = Object.entries(outcome.counts).map(([what, n]) => countOf(n, what));
  const lines = [
    `lookout: imported from ${source.label}: ${counts.join(', ') || 'nothing'}${flags.output ? ` into ${flags.output}` : ''}.`,
  ];
  if (outcome.unmapped.length) {
    lines.push(`Not imported (${outcome.unmapped.length}):`);
    for (const u of outcome.unmapped) lines.push(`  - ${unmappedLine(u)}`);
  }
  for (const n of rendered.notes) lines.push(`Note: ${shown(n)}`);
  const envs = [...new Set(outcome.secrets.map((s) => s.env))];
  if (envs.length) lines.push(`Set these before plan and apply: ${envs.join(', ')}`);
  lines.push('Next: npx lookout plan -f FILE, then npx lookout apply -f FILE.');
  io.err(lines.join('\n'));
  return 0;
};
