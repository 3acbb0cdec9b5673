import { z } from 'zod';
import { normaliseRecipient } from '../../mailbox.js';
import { defineContactKind } from './kind.js';

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
  // The mailbox it reaches (lower case, no `+tag`, Gmail's dots ignored), as mail budgets count it.
  codeDestination: (a) => `email:${normaliseRecipient(a.address)}`,
  service: null,
  target: (a) => ({ kind: 'email', config: { addresses: [a.address] } }),
  operatorAddress: false,
});
