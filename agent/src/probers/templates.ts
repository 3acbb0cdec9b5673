/**
 * `{{name}}` in a multi-step check's url, header values and body (docs/scripted-checks.md): `url` is
 * the monitor's URL, `secrets.NAME` a workspace secret, any other name a variable an earlier step
 * extracted. The control plane refused every other use (domain/checks/multistep-rules.ts, the same
 * grammar: spaces inside the braces are allowed); what still cannot be filled here is an error.
 */

export class TemplateError extends Error {
  readonly code = 'ETEMPLATE';
}

/** What a run substitutes: its variables (by name; `url` among them) and the workspace secrets. */
export interface TemplateValues {
  vars: Readonly<Record<string, string>>;
  secrets: Readonly<Record<string, string>>;
}

const SECRET_PREFIX = 'secrets.';

/**
 * `text` with its templates filled in. A text without `{{` is returned as it is (no allocation: the
 * common case for headers and bodies). Throws a TemplateError naming the first name it cannot fill.
 */
export const fillTemplates = (text: string, values: TemplateValues): string => {
  let open = text.indexOf('{{');
  if (open === -1) return text;
  let out = '';
  let from = 0;
  while (open !== -1) {
    const close = text.indexOf('}}', open + 2);
    if (close === -1) throw new TemplateError('has {{ without its closing }}');
    const name = text.slice(open + 2, close).trim();
    let value: string | undefined;
    if (name.startsWith(SECRET_PREFIX)) {
      const secret = name.slice(SECRET_PREFIX.length);
      value = Object.hasOwn(values.secrets, secret) ? values.secrets[secret] : undefined;
      if (value === undefined) throw new TemplateError(`the secret ${secret} is not available to this check`);
    } else {
      value = Object.hasOwn(values.vars, name) ? values.vars[name] : undefined;
      if (value === undefined) throw new TemplateError(`no earlier step extracted {{${name}}}`);
    }
    out += text.slice(from, open) + value;
    from = close + 2;
    open = text.indexOf('{{', from);
  }
  return out + text.slice(from);
};
