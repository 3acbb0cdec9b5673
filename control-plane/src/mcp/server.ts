import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, ApiUnreachableError, createLookoutClient } from '../api-client/client.js';
import { nodeFetch } from '../api-client/node-fetch.js';
import type { McpApi } from './api.js';
import { ToolRefusal } from './oncall-tools.js';
import { triageMessages, triagePrompt } from './prompts.js';
import type { McpSettings } from './settings.js';
import { tools } from './tools.js';

/**
 * `npx lookout mcp`: an MCP server on stdio whose tools are calls of Lookout's public API with the
 * user's key. stdout carries the protocol; anything for people goes to stderr.
 */

const version = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
})();

const instructions = (
  who: string,
) => `Lookout monitors services (uptime monitors checked from several regions, heartbeats pinged by jobs) and raises alerts.
Start on-call work with list_alerts (status ["open", "acknowledged"]) or the triage_open_alerts prompt.
who_is_on_call says who is on call in a schedule (or every schedule) and until when; list_my_shifts gives the user's next shifts.
Every tool acts as ${who}, with that user's role. Ask before acknowledging, resolving or pausing anything.`;

/**
 * What differs between the two transports: who the tools act as (for the instructions) and what to
 * say when the API refuses the credential (401).
 */
export interface McpIdentity {
  actsAs: string;
  whenRefused: string;
}

/** stdio: the API key's user; a 401 says which setting to fix. */
export const keyIdentity = (settings: Pick<McpSettings, 'apiUrl' | 'configPath'>): McpIdentity => ({
  actsAs: 'the user who owns the API key',
  whenRefused: `The API key (SERVICE_API_KEY, or "api_key" in ${settings.configPath}) was refused by ${settings.apiUrl}. Use an active key created in this workspace.`,
});

/** The API's own message, then each bad field on its line; a 401 also says what to fix. */
export const describeApiError = (e: ApiError, identity: McpIdentity) => {
  const lines = [`${e.message} (HTTP ${e.status}, ${e.code})`];
  for (const d of e.details) lines.push(`- ${d.field}: ${d.message}`);
  if (e.status === 401) lines.push(identity.whenRefused);
  return lines.join('\n');
};

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** The one MCP server definition (tools, prompt, instructions), served on stdio and on /mcp. */
export const createLookoutMcpServer = (api: McpApi, identity: McpIdentity) => {
  const server = new McpServer(
    { name: 'lookout', title: 'Lookout', version },
    { instructions: instructions(identity.actsAs) },
  );
  const failure = (e: unknown): string => {
    if (e instanceof ApiUnreachableError) return `Lookout API unreachable: ${e.message}`;
    if (e instanceof ApiError) return describeApiError(e, identity);
    if (e instanceof ToolRefusal) return e.message;
    return `Lookout MCP server error: ${(e as Error).message}`;
  };

  for (const t of tools) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, annotations: t.annotations },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const result = await t.run(api, args as Record<string, unknown>);
          // JSON of the API, or an answer already in words (the on-call tools).
          const text = typeof result === 'string' ? result : JSON.stringify(result);
          return { content: [{ type: 'text', text }] };
        } catch (e) {
          return toolError(failure(e));
        }
      },
    );
  }

  server.registerPrompt(
    triagePrompt.name,
    { title: triagePrompt.title, description: triagePrompt.description, argsSchema: triagePrompt.args },
    async ({ focus }) => {
      try {
        return await triageMessages(api, focus);
      } catch (e) {
        throw new McpError(ErrorCode.InternalError, failure(e));
      }
    },
  );
  return server;
};

/** Serves on this process's stdin/stdout until stdin ends. */
export const runStdioMcpServer = async (settings: McpSettings): Promise<void> => {
  const api: McpApi = {
    baseUrl: settings.apiUrl,
    client: createLookoutClient({
      baseUrl: settings.apiUrl,
      fetch: nodeFetch(),
      headers: { 'x-api-key': settings.apiKey, 'user-agent': `lookout-mcp/${version}` },
    }),
  };
  const server = createLookoutMcpServer(api, keyIdentity(settings));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  process.stderr.write(`lookout mcp: serving ${settings.apiUrl} on stdio\n`);
  await closed;
};
