import { z } from 'zod';
import { responseSchemas } from '../responses.js';

/** What a recorded ping answers (the spec's shape). */
export const pingResponse = z
  .strictObject({ message: z.string(), status: z.literal('ok') })
  .register(responseSchemas, { id: 'PingRecorded' });
