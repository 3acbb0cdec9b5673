import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Healthchecks Management API v3 as its documentation describes it
 * (test/fixtures/import/healthchecks/SOURCE.md): `GET /api/v3/checks/` with `X-Api-Key`, a read-only
 * key answering without `uuid`, the `*_url` fields and `channels` and with `unique_key`;
 * `GET /api/v3/channels/` for a read-write key only; 401 `{"error": "wrong api key"}` otherwise.
 */
const DIR = 'test/fixtures/import/healthchecks';
const READ_ONLY_DROPS = ['uuid', 'ping_url', 'update_url', 'pause_url', 'resume_url', 'channels'];

export interface HealthchecksApi {
  url: string;
  /** Every request's path and whether it had a key, for the test to look at. */
  requests: { path: string; key: string | undefined }[];
  close(): Promise<void>;
}

export const startHealthchecksApi = async (keys: {
  readWrite: string;
  readOnly: string;
}): Promise<HealthchecksApi> => {
  const checks = JSON.parse(readFileSync(`${DIR}/checks.json`, 'utf8')) as {
    checks: Record<string, unknown>[];
  };
  const channels = readFileSync(`${DIR}/channels.json`, 'utf8');
  const readOnlyChecks = JSON.stringify({
    checks: checks.checks.map((c, i) => {
      const out = { ...c };
      for (const k of READ_ONLY_DROPS) delete out[k];
      out.unique_key = `${String(i).padStart(4, '0')}${'a6c7b0a8a66bed0df66abfdab3c77736'}`.slice(0, 40);
      return out;
    }),
  });
  const requests: HealthchecksApi['requests'] = [];
  const server: Server = createServer((req, res) => {
    const key = req.headers['x-api-key'] as string | undefined;
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ path, key });
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    if (req.method !== 'GET') return send(405, '{"error":"method not allowed"}');
    if (!key) return send(401, '{"error": "missing api key"}');
    const rw = key === keys.readWrite;
    const ro = key === keys.readOnly;
    if (path === '/api/v3/checks/') {
      if (rw) return send(200, JSON.stringify(checks));
      if (ro) return send(200, readOnlyChecks);
      return send(401, '{"error": "wrong api key"}');
    }
    if (path === '/api/v3/channels/') {
      if (rw) return send(200, channels);
      return send(401, '{"error": "wrong api key"}');
    }
    send(404, '{"error": "not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
