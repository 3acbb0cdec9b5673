import { createApiClient } from '../mcp/api-client.js';
import type { ConfigApi } from './api-port.js';

/** The configuration commands' API client: HTTP with X-API-Key (errors are ApiError: status, code, details). */
export const createHttpConfigApi = (opts: {
  apiUrl: string;
  apiKey: string;
  userAgent: string;
}): ConfigApi => {
  const client = createApiClient({
    baseUrl: opts.apiUrl,
    apiKey: opts.apiKey,
    userAgent: opts.userAgent,
    timeoutMs: 120_000,
  });
  return {
    async listAll(path) {
      const all: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const page = (await client.get(path, { limit: 100, cursor })) as {
          data: Record<string, unknown>[];
          next_cursor?: string | null;
        };
        all.push(...page.data);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return all;
    },
    get: (path) => client.get(path),
    post: (path, body) => client.post(path, body),
    patch: (path, body) => client.patch(path, body),
    async delete(path) {
      await client.delete(path);
    },
  };
};
