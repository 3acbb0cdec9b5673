import { z } from 'zod';
import { defineContactKind } from './kind.js';

/** Gmail delivers `a.b.c@` to `abc@`; other providers' dots are kept. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/** An email address, sent through the deployment's mail route (channel kind `email`). */
export default defineContactKind({
  type: 'email',
  label: 'Email',
  body: { address: z.email().max(320) },
  form: { address: { label: 'Email address', input: 'email' } },
  response: { address: z.string() },
  shown: (a) => ({ address: a.address }),
  describe: (a) => a.address,
  destination: (a) => a.address.toLowerCase(),
  // Lower-cased, without its `+tag` (which lands in the same mailbox) and, at Gmail, without dots.
  codeDestination: (a) => {
    const at = a.address.lastIndexOf('@');
    let local = a.address.slice(0, at).toLowerCase();
    let domain = a.address.slice(at + 1).toLowerCase();
    local = local.split('+')[0]!;
    if (DOTLESS_DOMAINS.has(domain)) {
      local = local.replace(/\./g, '');
      domain = 'gmail.com';
    }
    return `email:${local}@${domain}`;
  },
  service: null,
  target: (a) => ({ kind: 'email', config: { addresses: [a.address] } }),
  operatorAddress: false,
});
