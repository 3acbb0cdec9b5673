import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MAX_SCRIPT_BYTES } from '../domain/checks/browser.js';
import { fieldName } from '../domain/validation.js';
import type { ConfigSource } from './yaml-source.js';

/**
 * `script_file:` of a browser monitor (docs/scripted-checks.md, "Workspace secrets" and the config
 * section): the script comes from a file next to the configuration file, so it is reviewed in git like
 * any code. Read when plan or apply reads the file, and put in `script` (which the API takes); export
 * writes `script` inline.
 *
 * The path is relative to the configuration file's folder and must stay inside it: no absolute path,
 * no `..` out of it, no symbolic link leading out (the real path is compared), a regular file of at
 * most MAX_SCRIPT_BYTES. Each refusal is a problem at the field's line; nothing is read outside.
 * The file's text is taken as it is: `${…}` in it is JavaScript, not a variable.
 */
export const resolveScriptFiles = (source: ConfigSource, dir: string): void => {
  const monitors = (source.data as { monitors?: unknown } | null)?.monitors;
  if (!Array.isArray(monitors)) return;
  let root: string | null = null;
  for (const [i, m] of monitors.entries()) {
    if (!m || typeof m !== 'object' || !('script_file' in m)) continue;
    const item = m as Record<string, unknown>;
    const path = ['monitors', i, 'script_file'];
    const refuse = (message: string) =>
      source.problems.push({ path: fieldName(path), line: source.lineOf(path), message });
    const given = item.script_file;
    delete item.script_file;
    if (typeof given !== 'string' || given.trim() === '') {
      refuse('must be the path of a file next to the configuration file, e.g. scripts/checkout.js');
      continue;
    }
    if (item.monitor_type !== 'browser') {
      refuse('applies only to browser monitors');
      continue;
    }
    if (item.script !== undefined) {
      refuse('gives the script a second time: write either script or script_file');
      continue;
    }
    if (isAbsolute(given) || given.includes('\0')) {
      refuse('must be a path relative to the configuration file’s folder, not an absolute path');
      continue;
    }
    const inside = (base: string, p: string) => {
      const r = relative(base, p);
      return r !== '' && r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r);
    };
    if (!inside(resolve(dir), resolve(dir, given))) {
      refuse('must stay inside the configuration file’s folder (no ..)');
      continue;
    }
    try {
      root ??= realpathSync(dir);
      const real = realpathSync(resolve(dir, given));
      if (!inside(root, real)) {
        refuse('leads out of the configuration file’s folder (a symbolic link); use the file itself');
        continue;
      }
      item.script = readScript(real);
    } catch (e) {
      refuse(readProblem(e as NodeJS.ErrnoException, given));
    }
  }
};

class ScriptFileProblem extends Error {}

/** The file's text, refused when it is not a regular file or is longer than a script may be. */
const readScript = (real: string): string => {
  const fd = openSync(real, 'r');
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ScriptFileProblem('is not a regular file');
    if (st.size > MAX_SCRIPT_BYTES)
      throw new ScriptFileProblem(
        `is ${st.size} bytes; a script is at most ${MAX_SCRIPT_BYTES} bytes (64 KiB)`,
      );
    const buf = Buffer.alloc(MAX_SCRIPT_BYTES + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    if (n > MAX_SCRIPT_BYTES)
      throw new ScriptFileProblem(`is over ${MAX_SCRIPT_BYTES} bytes; a script is at most 64 KiB`);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
};

const readProblem = (e: NodeJS.ErrnoException, given: string) => {
  if (e instanceof ScriptFileProblem) return `${given} ${e.message}`;
  if (e.code === 'ENOENT') return `names ${given}, which does not exist next to the configuration file`;
  if (e.code === 'EISDIR') return `${given} is a folder, not a file`;
  return `cannot read ${given}: ${e.code ?? e.message}`;
};
