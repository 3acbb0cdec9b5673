import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configKeys, envName, loadConfig } from './config.js';

describe('config', () => {
  it('has a default for everything', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      http_port: 8080,
      service_domain: 'localhost',
      regions: ['eu-west', 'us-east'],
      trust_proxy: false,
    });
    expect(c.plans.free).toEqual({
      max_monitors: 10,
      min_interval_seconds: 180,
      max_heartbeats: 20,
      max_status_pages: 1,
    });
  });

  it('names no SMTP server unless told (no silent localhost:25); a user without a host and a bad encryption key are refused', () => {
    expect(loadConfig({}).smtp_host).toBeUndefined();
    expect(loadConfig({ LOOKOUT_SMTP_HOST: 'localhost' }).smtp_host).toBe('localhost');
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ LOOKOUT_ENCRYPTION_KEY: key }).encryption_key).toBe(key);
    let err: ConfigError | undefined;
    try {
      loadConfig({ LOOKOUT_SMTP_USER: 'mailer', LOOKOUT_ENCRYPTION_KEY: 'c2hvcnQta2V5LW5vdC0zMg==' });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err?.problems).toEqual([
      'LOOKOUT_ENCRYPTION_KEY=(hidden): must be 32 random bytes in base64 (openssl rand -base64 32)',
      'LOOKOUT_SMTP_USER is set but LOOKOUT_SMTP_HOST is not: name the SMTP server too',
    ]);
  });

  it('reads env, then the file; env wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookout-cfg-'));
    const file = join(dir, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({ http_port: 9000, service_domain: 'status.example.com', regions: ['ap-south'] }),
    );
    const c = loadConfig({
      LOOKOUT_CONFIG_FILE: file,
      LOOKOUT_HTTP_PORT: '9100',
      LOOKOUT_TRUST_PROXY: 'true',
    });
    expect(c).toMatchObject({
      http_port: 9100,
      service_domain: 'status.example.com',
      regions: ['ap-south'],
      trust_proxy: true,
    });
    const plans = loadConfig({
      LOOKOUT_PLANS: '{"solo": {"max_monitors": 3, "min_interval_seconds": 300}}',
    }).plans;
    expect(plans).toEqual({ solo: { max_monitors: 3, min_interval_seconds: 300 } });
  });

  it('reports every bad value at once, one line each, naming the variable', () => {
    let err: ConfigError | undefined;
    try {
      loadConfig({
        LOOKOUT_HTTP_PORT: '70000',
        LOOKOUT_LOG_LEVEL: 'loud',
        LOOKOUT_PLANS: '{nope',
        LOOKOUT_MONGODB_URI: 'postgres://x',
      });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.problems.map((p) => p.split(/[=:]/)[0])).toEqual(
      ['LOOKOUT_MONGODB_URI', 'LOOKOUT_LOG_LEVEL', 'LOOKOUT_PLANS', 'LOOKOUT_HTTP_PORT'].sort(
        (a, b) =>
          Object.keys(configKeys).indexOf(a.slice(8).toLowerCase()) -
          Object.keys(configKeys).indexOf(b.slice(8).toLowerCase()),
      ),
    );
  });

  it('takes the DNS servers custom domains are verified against as IP[:port], comma-separated', () => {
    expect(loadConfig({}).custom_domain_dns_servers).toEqual([]);
    expect(
      loadConfig({ LOOKOUT_CUSTOM_DOMAIN_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,::1,[::1]:53' })
        .custom_domain_dns_servers,
    ).toEqual(['1.1.1.1', '127.0.0.1:5353', '::1', '[::1]:53']);
    expect(() => loadConfig({ LOOKOUT_CUSTOM_DOMAIN_DNS_SERVERS: '1.1.1.1,dns.google' })).toThrow(
      /LOOKOUT_CUSTOM_DOMAIN_DNS_SERVERS="1.1.1.1,dns.google": 1: must be IP addresses/,
    );
  });

  it('refuses a session idle time longer than the session lifetime', () => {
    expect(() => loadConfig({ LOOKOUT_SESSION_IDLE_MINUTES: '120', LOOKOUT_SESSION_MAX_HOURS: '1' })).toThrow(
      /LOOKOUT_SESSION_IDLE_MINUTES=120: must not be longer than LOOKOUT_SESSION_MAX_HOURS/,
    );
    expect(loadConfig({ LOOKOUT_SESSION_IDLE_MINUTES: '60', LOOKOUT_SESSION_MAX_HOURS: '1' })).toMatchObject({
      session_idle_minutes: 60,
      session_max_hours: 1,
    });
  });

  it('connection limits: defaults, validation, and headers within the request timeout', () => {
    expect(loadConfig({})).toMatchObject({
      http_headers_timeout_ms: 20_000,
      http_request_timeout_ms: 30_000,
      http_keep_alive_timeout_ms: 65_000,
      http_max_connections: 10_000,
      rpc_idle_timeout_ms: 60_000,
      rpc_max_connections: 1_000,
    });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(
      problems({ LOOKOUT_RPC_IDLE_TIMEOUT_MS: '5000', LOOKOUT_HTTP_MAX_CONNECTIONS: '0' }).map(
        (p) => p.split('=')[0],
      ),
    ).toEqual(['LOOKOUT_HTTP_MAX_CONNECTIONS', 'LOOKOUT_RPC_IDLE_TIMEOUT_MS']);
    expect(problems({ LOOKOUT_HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      'LOOKOUT_HTTP_HEADERS_TIMEOUT_MS=40000: must not exceed LOOKOUT_HTTP_REQUEST_TIMEOUT_MS (30000)',
    ]);
  });

  it('every setting is documented in the README configuration table', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    for (const key of Object.keys(configKeys))
      expect(readme, envName(key)).toContain(`| \`${envName(key)}\``);
  });
});
