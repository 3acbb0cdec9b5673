import type { IncomingMessage, ServerResponse } from 'node:http';
import inject from 'light-my-request';
import { type ApiClient, ApiUnreachableError, queryString, toApiError } from './api-client.js';

/**
 * The hosted MCP server's ApiClient: each call is a request of this process's own Koa app (injected
 * with light-my-request, no socket), so it goes through the same route table, validation, role
 * checks and serialization as any API call. No credential is sent: `dispatch` (given by the HTTP layer,
 * http/oauth/hosted-mcp.ts) says who the caller is, on the request object itself.
 */
export const createInProcessApiClient = (opts: {
  dispatch: (req: IncomingMessage, res: ServerResponse) => void;
  /** The workspace's host (it picks the workspace, as for any request). */
  host: string;
  /** For messages: the API's public address, ending in /api/v1. */
  baseUrl: string;
  userAgent: string;
}): ApiClient => {
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const res = await inject(opts.dispatch, {
      method,
      url: `/api/v1${path}`,
      headers: {
        host: opts.host,
        accept: 'application/json',
        'user-agent': opts.userAgent,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    let parsed: unknown;
    try {
      parsed = res.payload ? JSON.parse(res.payload) : null;
    } catch {
      if (res.statusCode < 400)
        throw new ApiUnreachableError(`the API answered ${res.statusCode} with something that is not JSON`);
    }
    if (res.statusCode >= 400) throw toApiError(res.statusCode, parsed, res.payload);
    return parsed;
  };
  return {
    baseUrl: opts.baseUrl,
    get: (path, query) => send('GET', `${path}${queryString(query)}`),
    post: (path, body) => send('POST', path, body ?? {}),
  };
};
