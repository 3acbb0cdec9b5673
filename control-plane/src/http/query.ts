import { z } from 'zod';
import { uuid } from '../domain/validation.js';

/** Query parameters common to every list. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(500).optional(),
};

export const boolParam = z.enum(['true', 'false']).transform((v) => v === 'true');

/** An ISO-8601 date-time with a zone, as a Date. */
export const isoTime = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** A path id in its stored form: lower case when it is a UUID, '' (found nowhere, so 404) when it is not. */
export const idOf = (raw: string | undefined) => (uuid().safeParse(raw).success ? raw!.toLowerCase() : '');
