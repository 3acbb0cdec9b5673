import { ASSERTION_SOURCES } from '@lookout/shared';
import { z } from 'zod';
import { CHECK_TYPES } from '../../domain/checks/registry.js';
import { MONITOR_TYPES } from '../../domain/types.js';
import { responseSchemas } from '../responses.js';

export const checkTypeResponse = z
  .strictObject({
    type: z.enum(MONITOR_TYPES).describe('The `monitor_type` value.'),
    label: z.string().describe('What people call the type.'),
    target: z
      .strictObject({
        label: z
          .string()
          .describe('What `url` holds for this type (URL, Host, Host and port, Connection URL…).'),
        example: z.string(),
        secret: z
          .boolean()
          .describe(
            'Write-only: the API shows a hint (scheme, host, last four characters), never the value.',
          ),
      })
      .describe("What the monitor's `url` is for this type."),
    assertion_sources: z
      .array(z.enum(ASSERTION_SOURCES))
      .describe("What the type's checks read for `assertions` (empty: it takes none)."),
    fields: z.array(
      z.strictObject({
        name: z.string().describe('The flat field of the monitor body.'),
        required: z.boolean().describe('Required on create for this type.'),
        default: z
          .unknown()
          .describe('Applied on create when left out; null when the API has its own rule or none.'),
        schema: z
          .record(z.string(), z.unknown())
          .describe('JSON Schema (draft 2020-12) of the field, the rules the API checks.'),
      }),
    ),
  })
  .register(responseSchemas, { id: 'CheckType' });

type CheckTypeJson = z.output<typeof checkTypeResponse>;

const fieldSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

let built: CheckTypeJson[] | undefined;

/** Every check type in the registry's order, its target and its own fields with their JSON Schemas (built once). */
export const checkTypesJson = (): CheckTypeJson[] => {
  built ??= Object.entries(CHECK_TYPES).map(([type, t]) => ({
    type: type as CheckTypeJson['type'],
    label: t.label,
    target: { label: t.target.label, example: t.target.example, secret: t.target.secret === true },
    assertion_sources: [...(t.assertionSources ?? [])],
    fields: Object.entries(t.fields).map(([name, f]) => ({
      name,
      required: f.required === true,
      default: f.default ?? null,
      schema: fieldSchema(f.schema),
    })),
  }));
  return built;
};
