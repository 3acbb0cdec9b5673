import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local UptimeRobot API v2 as its documentation describes it (test/fixtures/import/uptimerobot/
 * SOURCE.md): `POST /v2/<method>` with a form-encoded body carrying `api_key` and `format=json`;
 * lists paged by `offset` and `limit` (at most 50); a wrong or missing key answers
 * `{"stat": "fail", "error": {…}}`, echoing the key it was given in `passed_value` as the API does.
 */
const DIR = 'test/fixtures/import/uptimerobot';
const LISTS: Record<string, { file: string; key: string; paging: 'pagination' | 'flat' }> = {
  getMonitors: { file: 'getMonitors.json', key: 'monitors', paging: 'pagination' },
  getAlertContacts: { file: 'getAlertContacts.json', key: 'alert_contacts', paging: 'flat' },
  getMWindows: { file: 'getMWindows.json', key: 'mwindows', paging: 'pagination' },
};

export interface UptimeRobotApi {
  url: string;
  /** Every call: its method and form fields (the key among them), for the test to look at. */
  calls: { method: string; form: Record<string, string>; query: string }[];
  close(): Promise<void>;
}

export const startUptimeRobotApi = async (apiKey: string): Promise<UptimeRobotApi> => {
  const lists = Object.fromEntries(
    Object.entries(LISTS).map(([m, l]) => [
      m,
      (JSON.parse(readFileSync(`${DIR}/${l.file}`, 'utf8')) as Record<string, unknown[]>)[l.key] ?? [],
    ]),
  );
  const calls: UptimeRobotApi['calls'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [path = '', query = ''] = (req.url ?? '').split('?');
      const method = path.replace(/^\/v2\//, '');
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      calls.push({ method, form, query });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST') return send(405, { stat: 'fail', error: { type: 'method_not_allowed' } });
      const list = LISTS[method];
      if (!list)
        return send(404, { stat: 'fail', error: { type: 'not_found', message: 'Method not found.' } });
      if (!form.api_key)
        return send(200, {
          stat: 'fail',
          error: {
            type: 'missing_parameter',
            parameter_name: 'api_key',
            message: 'api_key parameter is missing.',
          },
        });
      if (form.api_key !== apiKey)
        return send(200, {
          stat: 'fail',
          error: {
            type: 'invalid_parameter',
            parameter_name: 'api_key',
            passed_value: form.api_key,
            message: 'api_key is invalid.',
          },
        });
      const all = lists[method] ?? [];
      const offset = Math.max(Number(form.offset ?? 0) || 0, 0);
      const limit = Math.min(Math.max(Number(form.limit ?? 50) || 50, 1), 50);
      const page = all.slice(offset, offset + limit);
      const paging = { offset, limit, total: all.length };
      send(
        200,
        list.paging === 'pagination'
          ? { stat: 'ok', pagination: paging, [list.key]: page }
          : { stat: 'ok', ...paging, [list.key]: page },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
