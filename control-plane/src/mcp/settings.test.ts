import { describe, expect, it } from 'vitest';
import { apiBase, defaultConfigPath, loadMcpSettings } from './settings.js';

const home = '/home/ops';
const files =
  (content: Record<string, string>) =>
  (path: string): string => {
    const text = content[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  };

describe('MCP settings', () => {
  it('takes the key and the address from the environment', () => {
    const s = loadMcpSettings({
      env: { SERVICE_API_KEY: 'ak.env', SERVICE_API_URL: 'https://acme.lookout.example.com/' },
      home,
      readFile: files({}),
    });
    expect(s).toEqual({
      apiKey: 'ak.env',
      apiUrl: 'https://acme.lookout.example.com/api/v1',
      configPath: defaultConfigPath(home),
    });
  });

  it('falls back to the config file, the default one or --config; the environment wins', () => {
    const file = JSON.stringify({ api_key: 'ak.file', api_url: 'http://acme.localhost:8080' });
    const fromDefault = loadMcpSettings({
      env: {},
      home,
      readFile: files({ [defaultConfigPath(home)]: file }),
    });
    expect(fromDefault).toMatchObject({ apiKey: 'ak.file', apiUrl: 'http://acme.localhost:8080/api/v1' });
    const mixed = loadMcpSettings({
      env: { SERVICE_API_KEY: 'ak.env' },
      configPath: '/etc/lookout.json',
      home,
      readFile: files({ '/etc/lookout.json': file }),
    });
    expect(mixed).toMatchObject({ apiKey: 'ak.env', configPath: '/etc/lookout.json' });
  });

  it('reports every missing setting at once, naming what to set', () => {
    const load = () => loadMcpSettings({ env: { SERVICE_API_KEY: '  ' }, home, readFile: files({}) });
    expect(load).toThrow(/set SERVICE_API_KEY, or "api_key" in \/home\/ops\/\.config\/lookout\/mcp\.json/);
    expect(load).toThrow(/set SERVICE_API_URL/);
  });

  it('refuses a --config file that is missing or not a JSON object, and a bad address', () => {
    const env = { SERVICE_API_KEY: 'ak.x', SERVICE_API_URL: 'https://a.example.com' };
    expect(() => loadMcpSettings({ env, configPath: '/nope.json', home, readFile: files({}) })).toThrow(
      /cannot read config file \/nope\.json/,
    );
    const bad = (text: string) =>
      loadMcpSettings({ env, configPath: '/c.json', home, readFile: files({ '/c.json': text }) });
    expect(() => bad('{')).toThrow(/not valid JSON/);
    expect(() => bad('[]')).toThrow(/must hold a JSON object/);
    expect(() => bad('{"api_key": 5}')).toThrow(/"api_key" must be a string/);
    expect(() =>
      loadMcpSettings({ env: { ...env, SERVICE_API_URL: 'ftp://a.example.com' }, home, readFile: files({}) }),
    ).toThrow(/SERVICE_API_URL "ftp:\/\/a.example.com" is not/);
  });

  it('accepts the workspace address with or without /api/v1', () => {
    expect(apiBase('https://acme.example.com')).toBe('https://acme.example.com/api/v1');
    expect(apiBase('https://acme.example.com/api/v1/')).toBe('https://acme.example.com/api/v1');
    expect(apiBase('https://proxy.example.com/lookout')).toBe('https://proxy.example.com/lookout/api/v1');
    expect(apiBase('acme.example.com')).toBeNull();
    expect(apiBase('https://user:pw@acme.example.com')).toBeNull();
  });
});
