import { z } from 'zod';
import { responseSchemas } from '../responses.js';

/** A new authenticator secret, pending until confirmed: the secret, its otpauth:// URL and a QR code of it. */
export const totpSetupResponse = z
  .strictObject({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() })
  .register(responseSchemas, { id: 'TotpSetup' });

/** Recovery codes, shown this once (only their hashes are kept). */
export const recoveryCodesResponse = z
  .strictObject({ recovery_codes: z.array(z.string()) })
  .register(responseSchemas, { id: 'RecoveryCodes' });

export const workspaceSecurityResponse = z
  .strictObject({ require_2fa: z.boolean() })
  .register(responseSchemas, { id: 'WorkspaceSecurity' });
