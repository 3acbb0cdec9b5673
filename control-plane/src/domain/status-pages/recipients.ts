import { hashSecret } from '@lookout/shared';
import { normaliseRecipient } from '../mailbox.js';

/** What the store counts a recipient by: the SHA-256 of its normalised address (no address is kept). */
export const recipientKey = (email: string) => hashSecret(normaliseRecipient(email));
