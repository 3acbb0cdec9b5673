import type { AssertionSource, FieldProblem, SecretBox } from '@lookout/shared';
import type { z } from 'zod';
import type { CatalogMonitor, Monitor } from '../types.js';

/**
 * One field a check type adds to the monitor: how a client's value is checked, its default, and where
 * the record keeps it — a column of the first protocol's flat record, or the record's `settings` (the
 * later types' fields: a new one needs no migration).
 */
export interface CheckField {
  schema: z.ZodType;
  stored: 'column' | 'settings';
  /** Applied on create when the client leaves it out (settings fields only; columns: monitors.ts). */
  default?: unknown;
  /** Required on create for this type. */
  required?: boolean;
}

/** What a check type's target (`url`) is: its label in forms, an example, and the check of a value. */
export interface CheckTarget {
  label: string;
  example: string;
  problem(url: string): string | null;
  /**
   * A secret (a connection URL with its password): stored sealed, the record's `url` holding a hint
   * (scheme, host and its last four characters), opened only for the agent.
   */
  secret?: boolean;
}

/** The settings message of the agent protocol, as a plain init object (the rpc layer builds it). */
export interface WireSettings {
  case: string;
  value: Record<string, unknown>;
}

/**
 * A check type as the control plane knows it: one module per type (this folder), one line in
 * registry.ts. Its prober is agent/src/probers/; its settings message is in the agent protocol.
 */
export interface CheckType {
  /** What people call it, in forms and lists. */
  label: string;
  target: CheckTarget;
  /** The type's own fields, flat on the monitor (beside the common ones of monitors.ts). */
  fields: Readonly<Record<string, CheckField>>;
  /** What its prober reads for assertions (the types with an `assertions` field); a new row starts with the first. */
  assertionSources?: readonly AssertionSource[];
  /** Rules across fields, on the whole monitor (new, or existing + patch); `given`: what the client sent. */
  rules?(m: Monitor, given: ReadonlySet<string>, isNew: boolean): FieldProblem[];
  /**
   * The type's settings for its prober. `url` is the target opened (a secret's plain value); `box`
   * opens what else the monitor keeps sealed (scripted checks' workspace secrets).
   */
  wire(m: CatalogMonitor, box: SecretBox): WireSettings;
}

/** Assertions on a source the type's prober never reads: refused, naming each and what the type reads. */
export const sourceProblems = (type: string, t: CheckType, m: Pick<Monitor, 'settings'>): FieldProblem[] => {
  const sources = t.assertionSources;
  if (!sources) return [];
  const list = setting<{ source: AssertionSource }[]>(m, t.fields, 'assertions');
  return list.flatMap((a, i) =>
    sources.includes(a.source)
      ? []
      : [
          {
            field: `assertions[${i}].source`,
            message: `${type} checks do not read ${a.source}; they read ${sources.join(', ')}`,
          },
        ],
  );
};

/** A settings field of the monitor, as stored, or its default in `fields` (a record stored before it existed). */
export const setting = <T>(m: Pick<Monitor, 'settings'>, fields: CheckType['fields'], name: string): T =>
  (m.settings[name] ?? fields[name]?.default) as T;
