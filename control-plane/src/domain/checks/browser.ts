import { z } from 'zod';
import { openSecrets } from '../secrets/sealed-secrets.js';
import { type CheckType, setting } from './check-type.js';
import { TIMED } from './common-fields.js';
import { urlTarget } from './targets.js';

/** The longest script the API takes (bytes of UTF-8). */
export const MAX_SCRIPT_BYTES = 65_536;

/**
 * A browser check (docs/scripted-checks.md): JavaScript using Playwright's `page`, run by an agent that
 * declares the `browser` capability, in its sandbox. `url` is the site the check is about (lists show
 * it; the script reads it as `url`).
 */
export const browser: CheckType = {
  label: 'Browser',
  target: urlTarget(['http:', 'https:'], 'https://shop.example.com'),
  fields: {
    script: {
      schema: z
        .string()
        .min(1)
        .refine(
          (s) => Buffer.byteLength(s, 'utf8') <= MAX_SCRIPT_BYTES,
          `must be at most ${MAX_SCRIPT_BYTES} bytes`,
        )
        .describe(
          "JavaScript run with Playwright's `page`, e.g. await page.goto(url); await page.getByRole('button', { name: 'Sign in' }).click();",
        ),
      stored: 'settings',
      required: true,
    },
    ...TIMED,
  },
  wire: (m, box) => ({
    case: 'browser',
    value: {
      script: setting<string | undefined>(m, browser.fields, 'script') ?? '',
      secrets: openSecrets(box, m),
    },
  }),
};
