import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `npx lookout mcp` needs: an API key and the workspace address. The key comes from
 * SERVICE_API_KEY or the config file's `api_key`; the address from SERVICE_API_URL or the file's
 * `api_url`. The environment wins. The file is `--config FILE`, else ~/.config/lookout/mcp.json
 * (optional when it is the default). Every problem is reported at once, saying what to set.
 */
export interface McpSettings {
  apiKey: string;
  /** Base of the API, always ending in /api/v1 (no trailing slash). */
  apiUrl: string;
  /** The config file that was looked at (for messages). */
  configPath: string;
}

export class McpSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpSettingsError';
  }
}

export const defaultConfigPath = (home: string) => join(home, '.config', 'lookout', 'mcp.json');

export interface SettingsSources {
  env: Record<string, string | undefined>;
  /** From --config; when given, the file must exist. */
  configPath?: string;
  home: string;
  readFile?: (path: string) => string;
}

const readConfigFile = (path: string, required: boolean, read: (p: string) => string) => {
  let text: string;
  try {
    text = read(path);
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new McpSettingsError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new McpSettingsError(`config file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new McpSettingsError(`config file ${path} must hold a JSON object such as {"api_key": "ak.…"}`);
  const { api_key, api_url } = parsed as Record<string, unknown>;
  const problems = [
    ...(api_key !== undefined && typeof api_key !== 'string' ? ['"api_key" must be a string'] : []),
    ...(api_url !== undefined && typeof api_url !== 'string' ? ['"api_url" must be a string'] : []),
  ];
  if (problems.length) throw new McpSettingsError(`config file ${path}: ${problems.join('; ')}`);
  return { api_key: api_key as string | undefined, api_url: api_url as string | undefined };
};

/** `https://acme.example.com` or `…/api/v1` → `https://acme.example.com/api/v1`; null when not a URL. */
export const apiBase = (address: string): string | null => {
  let u: URL;
  try {
    u = new URL(address.trim());
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return null;
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${path.endsWith('/api/v1') ? path : `${path}/api/v1`}`;
};

export const loadMcpSettings = ({
  env,
  configPath,
  home,
  readFile = (p) => readFileSync(p, 'utf8'),
}: SettingsSources): McpSettings => {
  const path = configPath ?? defaultConfigPath(home);
  const file = readConfigFile(path, configPath !== undefined, readFile);
  const key = (env.SERVICE_API_KEY?.trim() || file.api_key?.trim()) ?? '';
  const address = (env.SERVICE_API_URL?.trim() || file.api_url?.trim()) ?? '';
  const problems: string[] = [];
  if (!key)
    problems.push(
      `no API key: set SERVICE_API_KEY, or "api_key" in ${path} (create a key under Settings → API keys, or with npx lookout api-key create)`,
    );
  const base = address ? apiBase(address) : null;
  if (!address)
    problems.push(
      `no workspace address: set SERVICE_API_URL to your workspace's address, e.g. https://acme.lookout.example.com (or "api_url" in ${path})`,
    );
  else if (!base)
    problems.push(
      `${env.SERVICE_API_URL?.trim() ? 'SERVICE_API_URL' : `"api_url" in ${path}`} "${address}" is not an http:// or https:// address of a workspace`,
    );
  if (problems.length || !base) throw new McpSettingsError(problems.join('; '));
  return { apiKey: key, apiUrl: base, configPath: path };
};
