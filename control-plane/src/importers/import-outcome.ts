/**
 * What an importer (`npx lookout import <source> …`) makes of another product's configuration: a
 * Lookout configuration file (the format of `lookout export`, reviewed with `plan`, applied with
 * `apply`), everything it could not map with the reason, and the `${ENV}` references it wrote in
 * place of secrets. Importers are pure functions from the source's parsed input to this; reading the
 * input (a file, a database, an API) and writing the file are the command's (`import-command.ts`).
 */

/**
 * The configuration file's data: what `configFileSchema` takes (version 1, one list per kind; each
 * item the kind's create body with references by name). Items are loosely typed here: the rendered
 * file is checked against the schema before it is written (`render-import.ts`).
 */
export type ConfigKindKey =
  | 'channels'
  | 'schedules'
  | 'escalation_policies'
  | 'groups'
  | 'monitors'
  | 'heartbeats'
  | 'integrations'
  | 'maintenance_windows'
  | 'status_pages';
export type ConfigFileData = { version?: 1 } & Partial<Record<ConfigKindKey, Record<string, unknown>[]>>;

/** One setting of the source left out, or mapped only in part. */
export interface Unmapped {
  /** The source object, as its owner would recognise it: `monitor "API health" (id 12)`. */
  source: string;
  /** The setting of that object (`accepted_statuscodes`, `type: steam`), or '' for the whole object. */
  setting: string;
  /** Why, in plain words: `Lookout has no Steam game-server check`. */
  reason: string;
  /**
   * The file's item that lost the setting, if one was written: its kind (the file's key, `monitors`)
   * and its place in that list (`file.monitors[index]`). `# not imported: …` is written above it.
   */
  item?: { kind: string; index: number };
}

/** A secret written as `${NAME}`: the variable the user sets before `plan` and `apply`. */
export interface SecretReference {
  env: string;
  /** Where it stands in the file, for the listing: `monitors "API" auth.password`. */
  where: string;
}

export interface ImportOutcome {
  file: ConfigFileData;
  unmapped: Unmapped[];
  secrets: SecretReference[];
  /** What was read, for the summary line: `{ monitors: 52, notifications: 6 }` in the source's words. */
  counts: Record<string, number>;
}
