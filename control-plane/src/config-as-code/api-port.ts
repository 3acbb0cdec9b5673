/**
 * What the configuration commands need of Lookout's public API, and nothing more: lists read whole,
 * and plain writes. The one implementation is `http-config-api.ts` (an HTTP client with the user's
 * API key); moving to another client of the API is a change of that one file.
 */
export interface ConfigApi {
  /** Every record of a list endpoint (`/monitors`), all pages, in the API's order. */
  listAll(path: string): Promise<Record<string, unknown>[]>;
  get(path: string): Promise<unknown>;
  post(path: string, body: unknown): Promise<unknown>;
  patch(path: string, body: unknown): Promise<unknown>;
  delete(path: string): Promise<void>;
}

/** A refusal of the API: its status and its own words (`{"error": {code, message, details}}`). */
export interface ApiRefusal {
  status: number;
  code: string;
  message: string;
  details: { field: string; message: string }[];
}

export const isApiRefusal = (e: unknown): e is ApiRefusal =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as ApiRefusal).status === 'number' &&
  typeof (e as ApiRefusal).message === 'string' &&
  Array.isArray((e as ApiRefusal).details);
