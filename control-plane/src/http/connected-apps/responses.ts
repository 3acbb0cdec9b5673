import { z } from 'zod';
import type { ConnectedApp } from '../../domain/access/connected-apps.js';
import { responseSchemas, time } from '../responses.js';

export const appJson = (a: ConnectedApp) => ({
  ...a,
  granted_at: a.granted_at.toISOString(),
  expires_at: a.expires_at?.toISOString() ?? null,
});

export const connectedAppResponse = z
  .strictObject({
    id: z.string(),
    client_id: z.string(),
    client_name: z.string().nullable(),
    client_uri: z.string().nullable(),
    redirect_uris: z.array(z.string()),
    scope: z.string(),
    user_id: z.string(),
    user_email: z.string().nullable(),
    granted_at: time,
    expires_at: time.nullable(),
  })
  .register(responseSchemas, { id: 'ConnectedApp' });
