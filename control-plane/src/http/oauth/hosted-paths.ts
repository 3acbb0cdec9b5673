/** The hosted MCP connector's endpoint on every workspace subdomain. */
export const MCP_PATH = '/mcp';

/**
 * Whether a request may be for the hosted MCP connector (hosted-mcp.ts): `/mcp`, the authorization
 * server under `/oauth/`, or metadata under `/.well-known/`. app.ts loads the connector, and with it
 * oidc-provider and the MCP SDK, on the first such request; nothing else needs them.
 */
export const isHostedMcpPath = (path: string): boolean =>
  path === MCP_PATH || path.startsWith('/oauth/') || path.startsWith('/.well-known/');
