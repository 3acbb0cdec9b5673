/**
 * A text an agent reports (an error, a step's message, a console line) with every secret value in it
 * shown as ••••. Values shorter than 4 characters are left (they would hide ordinary words).
 */
export const redactSecrets = (text: string, secrets: Readonly<Record<string, string>>): string => {
  let out = text;
  for (const value of Object.values(secrets)) if (value.length >= 4) out = out.split(value).join('••••');
  return out;
};
