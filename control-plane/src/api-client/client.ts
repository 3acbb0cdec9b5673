import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

/**
 * The one typed client of /api/v1: the web app, the MCP server (both transports) and the CLI call
 * the API through it. Its types are generated from the API's OpenAPI document (schema.d.ts, see
 * `npm run generate:api`), which is built from the same zod schemas that validate requests and
 * responses; openapi-fetch checks paths, parameters and bodies at compile time and adds ~6 KB (2 KB
 * gzipped) to the web bundle. This file is platform-neutral: the transport is a `fetch` (the
 * browser's, node-fetch.ts over node:http, or mcp/in-process-fetch.ts into the app itself).
 */

export type { paths };
/** The API's named shapes: `Schemas['Monitor']`, `Schemas['Alert']`, … */
export type Schemas = components['schemas'];
export type LookoutClient = Client<paths>;
/** The JSON body an operation takes: `Body<'/monitors/create', 'post'>`. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export interface FieldDetail {
  field: string;
  message: string;
}

/** An answer of the API that is not a success: its status and its own words. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldDetail[];
  constructor(status: number, code: string, message: string, details: FieldDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
  /** The message for one field, if the API named it. */
  field(name: string) {
    return this.details.find((d) => d.field === name)?.message;
  }
}

/** The API could not be reached at all (refused, reset, timed out, not JSON). */
export class ApiUnreachableError extends ApiError {
  constructor(message: string) {
    super(0, 'network', message);
    this.name = 'ApiUnreachableError';
  }
}

/** An error body (`{"error": {code, message, details}}`) as ApiError; anything else by its status. */
export const toApiError = (status: number, body: unknown, text = ''): ApiError => {
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (e && typeof e.message === 'string') {
    const details = Array.isArray(e.details)
      ? e.details.filter(
          (d): d is FieldDetail => typeof d?.field === 'string' && typeof d?.message === 'string',
        )
      : [];
    return new ApiError(status, typeof e.code === 'string' ? e.code : 'error', e.message, details);
  }
  return new ApiError(status, 'http_error', `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`);
};

/**
 * A client of the API at `baseUrl` (ending in /api/v1). Arrays in queries go as one comma-separated
 * value (`status=open,acknowledged`), as the API reads them.
 */
export const createLookoutClient = (options: ClientOptions & { baseUrl: string }): LookoutClient =>
  createClient<paths>({ querySerializer: { array: { style: 'form', explode: false } }, ...options });

/**
 * The body of a success; an error answer rejects with ApiError. `await ok(api.GET('/monitors/{id}',
 * { params: { path: { id } } }))` is typed by the route's declared response.
 */
export const ok = async <D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> => {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response.status, error);
  return data as D;
};
