import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { renderImport } from '../render-import.js';
import { importUptimeKuma, readUptimeKuma } from './import-uptime-kuma.js';
import { fromBackup, monitorOf, notificationOf } from './kuma-data.js';

/** What a crafted backup or database may hold: none of it may break the file, leak a secret or crash. */
const NOW = new Date('2026-12-08T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'kuma-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lists = (o: ReturnType<typeof importUptimeKuma>) =>
  o.file as Record<string, Record<string, unknown>[] | undefined>;
const base = {
  version: '1.23',
  from: 'database' as const,
  notifications: [],
  maintenances: [],
  statusPages: [],
};

describe('hostile input', () => {
  it('names with line breaks and bidi overrides become one clean line; the file renders as plan reads it', () => {
    const o = importUptimeKuma(
      {
        ...base,
        monitors: [
          monitorOf(
            {
              id: 1,
              name: 'Evil\n# injected: true\u202Egnp.exe',
              type: 'port',
              hostname: 'h.example',
              port: 1,
            },
            [9],
            [],
          ),
          monitorOf({ id: 2, name: '\u0000\u0007', type: 'group' }, [], []),
        ],
        notifications: [
          notificationOf({
            id: 9,
            name: 'Hook\r\nX: y',
            config: '{"type":"slack","slackwebhookURL":"https://hooks.slack.com/x"}',
          }),
        ],
      },
      NOW,
    );
    expect(lists(o).monitors?.[0]?.display_name).toBe('Evil # injected: true gnp.exe');
    expect(lists(o).groups).toEqual([{ name: 'groups' }]);
    expect(lists(o).channels?.[0]?.name).toBe('Hook X: y');
    const rendered = renderImport(o, { source: 'Uptime Kuma', now: NOW });
    expect(rendered.problems).toEqual([]);
    expect(rendered.text).not.toMatch(/^injected: true/m);
  });

  it('credentials in a URL, a body, or odd header names never reach the file in the clear', () => {
    const o = importUptimeKuma(
      {
        ...base,
        monitors: [
          monitorOf(
            {
              id: 1,
              name: 'M',
              type: 'http',
              url: 'https://user:url-secret@a.example/?api_key=q-secret',
              body: '{"password":"body-secret"}',
              headers: '{"__proto__":"p","constructor":"c-secret-ish","X-Ok":"1"}',
            },
            [],
            [],
          ),
          monitorOf({ id: 2, name: 'F', type: 'http', url: 'ftp://user:ftp-secret@f.example/' }, [], []),
        ],
        notifications: [
          notificationOf({
            id: 1,
            name: 'W',
            config: JSON.stringify({
              type: 'webhook',
              webhookURL: 'https://w.example/h',
              webhookAdditionalHeaders: '{"__proto__":"x","X-Token":"hdr-secret"}',
            }),
          }),
        ],
      },
      NOW,
    );
    const text = JSON.stringify(o);
    for (const s of ['url-secret', 'q-secret', 'body-secret', 'ftp-secret', 'hdr-secret'])
      expect(text).not.toContain(s);
    expect(lists(o).monitors?.[0]).toMatchObject({
      url: `\${LOOKOUT_IMPORT_MONITOR_M_URL}`,
      request_body: `\${LOOKOUT_IMPORT_MONITOR_M_REQUEST_BODY}`,
      request_headers: { constructor: 'c-secret-ish', 'X-Ok': '1' },
    });
    const config = lists(o).channels?.[0]?.config as { headers: object };
    expect(Object.keys(config)).toEqual(['url', 'headers']);
    expect(Object.keys(config.headers)).toEqual(['X-Token']);
    expect(renderImport(o, { source: 'Uptime Kuma', now: NOW }).problems).toEqual([]);
  });

  it('a backup with junk entries reads what it can; a database without Kuma’s tables is refused', async () => {
    const kuma = fromBackup({
      version: 1,
      monitorList: [
        null,
        3,
        'x',
        [],
        { id: 5, name: 'ok', type: 'port', hostname: 'h.example', port: 2, tags: [null] },
      ],
      notificationList: [null],
    });
    expect(kuma.monitors.map((m) => m.name)).toEqual(['ok']);
    expect(lists(importUptimeKuma(kuma, NOW)).monitors).toHaveLength(1);
    const other = join(dir, 'other.db');
    new Database(other).exec('CREATE TABLE t (x)');
    await expect(readUptimeKuma(other)).rejects.toThrow(/no monitor table/);
    const sparse = join(dir, 'sparse.db');
    new Database(sparse).exec(
      "CREATE TABLE monitor (id INTEGER, name TEXT, type TEXT, hostname TEXT, port INTEGER); INSERT INTO monitor VALUES (1, 'x', 'port', 'h.example', 22)",
    );
    expect(lists(importUptimeKuma(await readUptimeKuma(sparse), NOW)).monitors).toHaveLength(1);
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    await expect(readUptimeKuma(empty)).rejects.toThrow(/neither/);
  });
  it('a user and password in a URL become basic auth; a target the API would refuse is left out, not the whole file', () => {
    const o = importUptimeKuma(
      {
        ...base,
        monitors: [
          monitorOf({ id: 1, name: 'U', type: 'http', url: 'https://bob:pw-secret@a.example/x' }, [], []),
          monitorOf({ id: 2, name: 'H', type: 'port', hostname: 'not a host', port: 1 }, [], []),
          monitorOf(
            { id: 3, name: 'D', type: 'dns', hostname: 'a.example', dns_resolve_server: 'dns.example' },
            [],
            [],
          ),
          monitorOf(
            { id: 4, name: 'W', type: 'websocket-upgrade', url: 'wss://u:ws-secret@w.example/s' },
            [],
            [],
          ),
        ],
      },
      NOW,
    );
    expect(JSON.stringify(o)).not.toMatch(/pw-secret|ws-secret/);
    expect(lists(o).monitors?.map((m) => [m.display_name, m.url, m.auth])).toEqual([
      [
        'U',
        'https://a.example/x',
        { type: 'basic', username: 'bob', password: `\${LOOKOUT_IMPORT_MONITOR_U_PASSWORD}` },
      ],
      ['D', 'a.example', undefined],
      ['W', 'wss://w.example/s', undefined],
    ]);
    expect(o.unmapped.map((u) => `${u.source}: ${u.setting} — ${u.reason}`)).toEqual([
      'monitor "H" (id 2):  — its target must be a host name or an IP address',
      'monitor "D" (id 3): dns_resolve_server: dns.example — Lookout asks a resolver by its IP address',
      'monitor "W" (id 4): url credentials — Lookout websocket checks send no user and password: they are dropped',
    ]);
  });
});
