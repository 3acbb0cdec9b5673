import type { LookoutClient } from '../api-client/client.js';

/** What the MCP tools and prompt call: the typed client, and the API's public address for messages. */
export interface McpApi {
  /** Ends in /api/v1. */
  baseUrl: string;
  client: LookoutClient;
}
