import type { IncomingMessage, ServerResponse } from 'node:http';
import inject from 'light-my-request';

/**
 * The hosted MCP server's transport for the typed client: each call is a request of this process's
 * own Koa app (injected with light-my-request, no socket), so it goes through the same route table,
 * validation, role checks and serialization as any API call. No credential is sent: `dispatch` (given
 * by the HTTP layer, http/oauth/hosted-mcp.ts) says who the caller is, on the request object itself.
 */
export const inProcessFetch =
  (opts: {
    dispatch: (req: IncomingMessage, res: ServerResponse) => void;
    /** The workspace's host (it picks the workspace, as for any request). */
    host: string;
  }) =>
  async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const payload = request.body ? await request.text() : undefined;
    const res = await inject(opts.dispatch, {
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...headers, host: opts.host },
      ...(payload === undefined ? {} : { payload }),
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers: out });
  };
