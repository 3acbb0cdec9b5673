import { ASSERTION_COMPARISONS, ASSERTION_SOURCES, TARGETLESS } from '@lookout/shared';
import { z } from 'zod';

/** The most assertions one monitor may have. */
export const MAX_ASSERTIONS = 20;

const assertion = z
  .strictObject({
    source: z.enum(ASSERTION_SOURCES),
    property: z.string().min(1).max(500).optional(),
    comparison: z.enum(ASSERTION_COMPARISONS),
    target: z.union([z.string().max(1000), z.number(), z.boolean()]).optional(),
  })
  .superRefine((a, ctx) => {
    if ((a.source === 'json_body' || a.source === 'headers') && a.property === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['property'],
        message: `is required for ${a.source} (${a.source === 'json_body' ? 'a JSONPath such as $.status' : 'the header name'})`,
      });
    if (!TARGETLESS.includes(a.comparison) && a.target === undefined)
      ctx.addIssue({ code: 'custom', path: ['target'], message: `is required for ${a.comparison}` });
  });

export type StoredAssertion = z.output<typeof assertion>;

/** A monitor's `assertions` field. */
export const assertionsField = z
  .array(assertion)
  .max(MAX_ASSERTIONS)
  .describe(
    'Conditions the response must meet, e.g. [{"source": "json_body", "property": "$.status", "comparison": "equals", "target": "ok"}].',
  );

/** Assertions as the agent protocol carries them: every value text, '' when absent. */
export const wireAssertions = (list: readonly StoredAssertion[] | undefined) =>
  (list ?? []).map((a) => ({
    source: a.source,
    property: a.property ?? '',
    comparison: a.comparison,
    target: a.target === undefined ? '' : String(a.target),
  }));
