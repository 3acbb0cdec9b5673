import { type AppError, type ErrorCode, errorStatus } from '@lookout/shared';
import { z } from 'zod';

/*
 * What every API resource's responses share. Each resource keeps its serializers in its own folder
 * (`http/<resource>/responses.ts`), each with its response schema beside it: the shape clients receive
 * (JSON, times as ISO strings), declared by every route returning that record (RouteDef.response),
 * documented in the OpenAPI document and checked against real responses when config
 * `validate_responses` is on. The objects are strict: a field the schema does not name fails the check.
 */
export const time = z.iso.datetime();

/** Named response shapes: the OpenAPI document lists each once under components.schemas and refers to it. */
export const responseSchemas = z.registry<{ id: string }>();
/** A record's id as responses show it. */
export const uuidString = z.string();

/** A list: one page of items and the cursor of the next (null on the last page). */
export const page = <T extends z.ZodType>(item: T) =>
  z.strictObject({ data: z.array(item), next_cursor: z.string().nullable() });

/** The one error body of the API (and of the ping endpoint), for every 4xx and 5xx. */
export const errorResponse = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.array(z.strictObject({ field: z.string(), message: z.string() })),
  }),
});

export const errorJson = (e: AppError): z.output<typeof errorResponse> => ({
  error: { code: e.code, message: e.message, details: e.details },
});

/** A time as responses show it: an ISO string (null stays null). */
export function iso(d: Date): string;
export function iso(d: Date | null): string | null;
export function iso(d: Date | null) {
  return d ? d.toISOString() : null;
}
