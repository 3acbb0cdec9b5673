import type { IncomingMessage } from 'node:http';

/**
 * A caller inside this process acting as a user: the hosted MCP endpoint runs each tool as an
 * in-process request of the API (mcp/in-process-fetch.ts) carrying this principal. It is a symbol
 * property of the request object, which only code in this process can set: nothing that arrives over
 * the network can forge it, and no token travels with it. `authorize` (app.ts) still loads the user
 * (current role; a removed user is refused) and applies the route's role, as for an API key.
 */
export const INTERNAL_PRINCIPAL = Symbol('lookout.internal-principal');

export interface InternalPrincipal {
  workspace_id: string;
  user_id: string;
  /** What the user authorized: the OAuth client, for logs. */
  via: { kind: 'oauth'; client_id: string; client_name?: string | undefined };
}

export const internalPrincipalOf = (req: IncomingMessage): InternalPrincipal | undefined =>
  (req as IncomingMessage & { [INTERNAL_PRINCIPAL]?: InternalPrincipal })[INTERNAL_PRINCIPAL];

export const withInternalPrincipal = (req: IncomingMessage, p: InternalPrincipal) => {
  (req as IncomingMessage & { [INTERNAL_PRINCIPAL]?: InternalPrincipal })[INTERNAL_PRINCIPAL] = p;
};
