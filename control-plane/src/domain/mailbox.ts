/** Providers that deliver `a.b@` and `ab@` to the same mailbox (Gmail ignores dots in the local part). */
const DOTS_IGNORED = new Set(['gmail.com']);
/** Domains that are another's mailboxes under a second name. */
const SAME_AS: Record<string, string> = { 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches, for counting mail to it (never for sending): lower case, the plus
 * tag dropped (`x+1@` is `x@` at every provider that supports tags, and where `+` is a plain character
 * two mailboxes only share a budget), dots dropped where the provider ignores them, and googlemail.com
 * read as gmail.com. `X.Y+news@GoogleMail.com` → `xy@gmail.com`.
 */
export const normaliseRecipient = (email: string): string => {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 1) return lower;
  let domain = lower.slice(at + 1).replace(/\.$/, '');
  domain = SAME_AS[domain] ?? domain;
  let local = lower.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED.has(domain)) local = local.replaceAll('.', '') || local;
  return `${local}@${domain}`;
};
