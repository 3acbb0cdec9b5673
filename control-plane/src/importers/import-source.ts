import type { ImportOutcome } from './import-outcome.js';

/**
 * One source of `npx lookout import <source> …`: its name on the command line, its usage line, and
 * how it reads its input into an `ImportOutcome` (the mapping itself is a pure function beside it).
 */
export interface ImportSource {
  /** The command's word: `gatus`, `uptime-kuma`. */
  name: string;
  /** The product as its users call it, for the file's top comment: `Gatus`. */
  label: string;
  /** What follows `import <name>` in the usage: `FILE (its config.yaml)`. */
  usage: string;
  read(args: ImportArgs): Promise<ImportOutcome>;
}

export interface ImportArgs {
  /** The positional FILE, if given. */
  file?: string;
  /** `--api-url`: the source's API address (a default public address when the source has one). */
  apiUrl?: string;
  /** `--api-key`: a read-only key of the source's API. */
  apiKey?: string;
  env: Record<string, string | undefined>;
}

/** The input cannot be read or is not the source's format: exit 1 with this message. */
export class ImportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportInputError';
  }
}

/**
 * The variable a secret of the source becomes: `LOOKOUT_IMPORT_<KIND>_<NAME>_<FIELD>` in upper snake
 * (`importEnvName('channel', 'Ops Slack', 'config.url')` → `LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_CONFIG_URL`).
 */
export const importEnvName = (kind: string, name: string, field: string) =>
  `LOOKOUT_IMPORT_${[kind, name, field].join('_')}`
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/_+$/g, '');

/** `${NAME}`: how the file writes a secret read from the environment. */
export const envRef = (name: string) => `\${${name}}`;

/** `2 endpoints`, `1 endpoint`: a count in the source's words (given in the plural). */
export const countOf = (n: number, plural: string) => `${n} ${n === 1 ? plural.replace(/s$/, '') : plural}`;
