import { z } from 'zod';
import { openSecrets } from '../secrets/sealed-secrets.js';
import { nameText } from '../validation.js';
import { assertionsFor, wireAssertions } from './assertions.js';
import { type CheckType, setting } from './check-type.js';
import { TIMED } from './common-fields.js';
import { HTTP_METHODS } from './http.js';
import { stepProblems } from './multistep-rules.js';
import { urlTarget } from './targets.js';

/** Caps of one run (the agent enforces the time and bytes; the API the counts). */
export const MAX_STEPS = 20;
export const MAX_EXTRACTS_PER_STEP = 10;

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name');
/** A variable's name: a name (validation.ts) that is also an identifier, as `{{token}}` uses it. */
const variableName = nameText(64).refine(
  (v) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(v),
  'must be a variable name such as token (letters, digits and _)',
);

export const extractSchema = z.strictObject({
  name: variableName,
  source: z.enum(['json_body', 'headers', 'text_body']),
  property: z.string().min(1).max(512).optional(),
  regex: z.string().min(1).max(512).optional(),
});

export const stepSchema = z.strictObject({
  name: nameText(100),
  method: z.enum(HTTP_METHODS),
  url: z.string().min(1).max(4096),
  headers: z
    .record(headerName, z.string().max(4096))
    .refine((h) => Object.keys(h).length <= 50, 'must have at most 50 headers')
    .optional(),
  body: z.string().max(65536).optional(),
  timeout_seconds: z.int().min(1).max(60).optional(),
  extract: z.array(extractSchema).max(MAX_EXTRACTS_PER_STEP).optional(),
  assertions: assertionsFor(['status_code', 'text_body', 'json_body', 'headers', 'response_time']).optional(),
});
export type StoredStep = z.output<typeof stepSchema>;

/**
 * A multi-step API check (docs/scripted-checks.md): requests in order, each able to use what earlier
 * ones extracted ({{name}}) and workspace secrets ({{secrets.NAME}}). Declarative: no code runs.
 * `url` is the site the check is about (lists show it; steps may use it as {{url}}).
 */
export const multistep: CheckType = {
  label: 'Multi-step API',
  target: urlTarget(['http:', 'https:'], 'https://shop.example.com'),
  fields: {
    steps: {
      schema: z
        .array(stepSchema)
        .min(1)
        .max(MAX_STEPS)
        // The rules across steps (multistep-rules.ts), run when a field is already wrong too (`when`),
        // so one answer names every bad field.
        .superRefine(
          (steps, ctx) => {
            for (const p of stepProblems(steps, MAX_STEPS))
              ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
          },
          { when: () => true },
        )
        .describe(
          'Requests run in order, e.g. [{"name": "Sign in", "method": "POST", "url": "{{url}}/login", "body": "{\\"password\\": \\"{{secrets.SHOP_PASSWORD}}\\"}", "extract": [{"name": "token", "source": "json_body", "property": "$.token"}], "assertions": [{"source": "status_code", "comparison": "equals", "target": 200}]}].',
        ),
      stored: 'settings',
      required: true,
    },
    ...TIMED,
  },
  wire: (m, box) => ({
    case: 'multistep',
    value: {
      steps: (setting<StoredStep[] | undefined>(m, multistep.fields, 'steps') ?? []).map((s) => ({
        name: s.name,
        method: s.method,
        url: s.url,
        headers: s.headers ?? {},
        body: s.body ?? '',
        timeoutMs: (s.timeout_seconds ?? 0) * 1000,
        extract: (s.extract ?? []).map((e) => ({
          name: e.name,
          source: e.source,
          property: e.property ?? '',
          regex: e.regex ?? '',
        })),
        assertions: wireAssertions(s.assertions),
      })),
      secrets: openSecrets(box, m),
    },
  }),
};
