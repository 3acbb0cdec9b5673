import { z } from 'zod';

/** Query parameters common to every list. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(500).optional(),
};

export const boolParam = z.enum(['true', 'false']).transform((v) => v === 'true');

/** An ISO-8601 date-time with a zone, as a Date. */
export const isoTime = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
