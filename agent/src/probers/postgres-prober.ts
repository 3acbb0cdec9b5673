import type { EventEmitter } from 'node:events';
import { Socket } from 'node:net';
import pg from 'pg';
import type { Prober } from '../probe-port.js';
import {
  capReads,
  type DatabaseDriver,
  type DatabaseProberOptions,
  databaseProber,
  parseDatabaseUrl,
  serverName,
  type TlsMode,
  type TrustedCa,
} from './database-check.js';

/** Every value as the text the server sent (no parsing into numbers or dates). */
const asText = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

/** libpq's sslmode: disable/allow/prefer (or none) connect in the clear, require encrypts, verify-* verify. */
const tlsOf = (_scheme: string, params: URLSearchParams): TlsMode => {
  const mode = params.get('sslmode');
  if (mode === 'require') return 'unverified';
  if (mode === 'verify-ca' || mode === 'verify-full') return 'verified';
  return 'none';
};

/** SQLSTATE classes: 28 is authorization, 3D an unknown database; everything else the server says is the query's. */
const kindOf = (e: unknown): string | undefined => {
  const err = e as { code?: unknown; severity?: unknown };
  if (typeof err?.code !== 'string' || typeof err.severity !== 'string') return undefined;
  if (err.code.startsWith('28') || err.code === '3D000') return 'auth_failed';
  return 'query_failed';
};

/** `ca`: extra trusted CAs (tests); the system store otherwise. */
export const postgresDriver = (ca?: TrustedCa): DatabaseDriver<pg.Client> => ({
  parse: (url) => parseDatabaseUrl(url, ['postgres', 'postgresql'], 5432, tlsOf),
  open(t, address) {
    const name = serverName(t.host);
    const client = new pg.Client({
      // A socket of ours, so what it reads is capped (pg connects it; TLS, when asked, wraps it).
      stream: () => capReads(new Socket()),
      host: address,
      port: t.port,
      user: t.user,
      password: t.password,
      database: t.database || t.user,
      types: asText,
      application_name: 'lookout',
      // Read-only: every transaction of the session, and the query one statement (extended protocol).
      options: '-c default_transaction_read_only=on',
      ssl:
        t.tls === 'none'
          ? false
          : {
              rejectUnauthorized: t.tls === 'verified',
              ...(name ? { servername: name } : {}),
              ...(ca ? { ca } : {}),
            },
    });
    client.on('error', () => {});
    // Under TLS the raw socket no longer reads (TLS reads its handle): the TLS socket is capped too.
    const conn = (client as unknown as { connection: EventEmitter & { stream: Socket } }).connection;
    conn.once('sslconnect', () => capReads(conn.stream));
    return client;
  },
  connect: async (client) => {
    await client.connect();
  },
  query: (client, text) =>
    new Promise((resolve, reject) => {
      // Rows are streamed, not kept: the first value is held, and a second row ends the read.
      const q = new pg.Query({ text, rowMode: 'array', queryMode: 'extended' } as pg.QueryConfig);
      let rows = 0;
      let first: unknown = null;
      q.on('row', (row: unknown[]) => {
        if (++rows === 1) first = row[0];
        else resolve(first);
      });
      q.on('end', () => resolve(first));
      q.on('error', reject);
      client.query(q);
    }),
  close(client, graceful) {
    // end() sends Terminate (the server logs no broken connection); otherwise the socket goes at once.
    if (graceful) client.end().catch(() => {});
    else (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  },
  kindOf,
});

/** postgres checks: connect with the URL, run `query`, read the first value; closed every run. */
export const createPostgresProber = (opts: DatabaseProberOptions = {}): Prober<'postgres'> =>
  databaseProber(postgresDriver, opts);
