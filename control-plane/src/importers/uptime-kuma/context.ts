import { NAME_PATTERN } from '../../domain/validation.js';
import type { SecretReference, Unmapped } from '../import-outcome.js';
import { envRef, importEnvName } from '../import-source.js';

/**
 * What the mappers of one import share: the unmapped list, the `${ENV}` references written in place of
 * secrets, and unique names per kind (Kuma allows two monitors of one name; Lookout names its items).
 */
export interface MapContext {
  unmapped: Unmapped[];
  secrets: SecretReference[];
  lose(source: string, setting: string, reason: string): void;
  /** `${LOOKOUT_IMPORT_<KIND>_<NAME>_<FIELD>}`, recorded with where it stands. */
  secret(kind: string, name: string, field: string, where: string): string;
  /** `name`, or `name (2)`… when the kind has it already (at most `max` characters). */
  uniqueName(kind: string, name: string, max: number): string;
  /** Ties the unmapped entries from `from` on to the file's item `kind[index]` (its `# not imported` comment). */
  attach(from: number, kind: string, index: number): void;
}

export const createMapContext = (): MapContext => {
  const unmapped: Unmapped[] = [];
  const secrets: SecretReference[] = [];
  const names = new Map<string, Set<string>>();
  const envs = new Set<string>();
  return {
    unmapped,
    secrets,
    lose: (source, setting, reason) => unmapped.push({ source, setting, reason }),
    secret(kind, name, field, where) {
      const base = importEnvName(kind, name, field);
      let env = base;
      for (let n = 2; envs.has(env); n++) env = `${base}_${n}`;
      envs.add(env);
      secrets.push({ env, where });
      return envRef(env);
    },
    attach(from, kind, index) {
      for (const u of unmapped.slice(from)) u.item ??= { kind, index };
    },
    uniqueName(kind, name, max) {
      const taken = names.get(kind) ?? new Set<string>();
      names.set(kind, taken);
      const base = cleanName(name).slice(0, max).trim() || kind;
      let out = base;
      for (let n = 2; taken.has(out.toLowerCase()); n++) {
        const suffix = ` (${n})`;
        out = `${base.slice(0, max - suffix.length)}${suffix}`;
      }
      taken.add(out.toLowerCase());
      return out;
    },
  };
};

/** What Lookout names may not hold (domain/validation.ts, NAME_PATTERN `^[^…]*$`): control and bidi characters. */
const NOT_IN_NAMES = new RegExp(`[${NAME_PATTERN.source.slice(3, -3)}]+`, 'g');

/** A source's name as a Lookout name: one line, without control or bidirectional formatting characters. */
export const cleanName = (name: string) => name.replace(NOT_IN_NAMES, ' ').replace(/\s+/g, ' ').trim();

/** `monitor "API health" (id 12)`: a source object as its owner would recognise it. */
export const sourceName = (what: string, name: string, id: number) => `${what} "${name}" (id ${id})`;
