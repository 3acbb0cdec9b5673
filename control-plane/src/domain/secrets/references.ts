/**
 * Which workspace secrets a scripted monitor names, with the field path of each use (for the 422 of a
 * secret that is not set, and for the sealed copies the monitor keeps). Pure: reads only the fields.
 *
 * - multistep: `{{secrets.NAME}}` (spaces allowed inside the braces) in each step's `url`, header
 *   values and `body`: `steps[2].url`, `steps[2].headers.Authorization`, `steps[0].body`.
 * - browser: `secrets.NAME`, `secrets['NAME']` and `secrets["NAME"]` in `script` (path `script`).
 *
 * A name that is not SECRET_NAME's shape is not a secret reference (the type's own rules say so, if
 * anything).
 */
export interface SecretUse {
  name: string;
  field: string;
}

const TEMPLATE = /\{\{\s*secrets\.([A-Z][A-Z0-9_]{0,63})\s*\}\}/g;
const SCRIPT =
  /(?<![\w$.])secrets\s*(?:\.\s*([A-Z][A-Z0-9_]{0,63})(?![\w$])|\[\s*(['"])([A-Z][A-Z0-9_]{0,63})\2\s*\])/g;

const namesIn = (text: string, pattern: RegExp, group: (m: RegExpMatchArray) => string | undefined) => {
  const out = new Set<string>();
  for (const m of text.matchAll(pattern)) {
    const name = group(m);
    if (name) out.add(name);
  }
  return [...out];
};

/** `{{secrets.NAME}}` names in one template string, each once, in order of first use. */
export const templateSecrets = (text: string): string[] => namesIn(text, TEMPLATE, (m) => m[1]);

/** `secrets.NAME` / `secrets['NAME']` / `secrets["NAME"]` names in a browser script, each once. */
export const scriptSecrets = (script: string): string[] => namesIn(script, SCRIPT, (m) => m[1] ?? m[3]);

interface StepLike {
  url?: unknown;
  headers?: unknown;
  body?: unknown;
}

/** The uses of secrets in a monitor's type and its settings (`steps` or `script`). */
export const secretUses = (monitorType: string, settings: Record<string, unknown>): SecretUse[] => {
  const uses: SecretUse[] = [];
  const add = (text: unknown, field: string, find: (t: string) => string[]) => {
    if (typeof text !== 'string') return;
    for (const name of find(text)) uses.push({ name, field });
  };
  if (monitorType === 'multistep' && Array.isArray(settings.steps)) {
    (settings.steps as StepLike[]).forEach((step, i) => {
      if (!step || typeof step !== 'object') return;
      add(step.url, `steps[${i}].url`, templateSecrets);
      if (step.headers && typeof step.headers === 'object')
        for (const [header, value] of Object.entries(step.headers as Record<string, unknown>))
          add(value, `steps[${i}].headers.${header}`, templateSecrets);
      add(step.body, `steps[${i}].body`, templateSecrets);
    });
  }
  if (monitorType === 'browser') add(settings.script, 'script', scriptSecrets);
  return uses;
};

/** The distinct names a monitor uses, sorted. */
export const secretNames = (uses: readonly SecretUse[]): string[] =>
  [...new Set(uses.map((u) => u.name))].sort();

/** The monitor types whose settings can name secrets (a secret's change looks only at these). */
export const SCRIPTED_TYPES = ['multistep', 'browser'] as const;
