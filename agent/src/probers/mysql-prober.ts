import { connect, type Socket } from 'node:net';
import mysql from 'mysql2';
import type { Prober } from '../probe-port.js';
import {
  capReads,
  type DatabaseDriver,
  type DatabaseProberOptions,
  databaseProber,
  parseDatabaseUrl,
  type TlsMode,
  type TrustedCa,
} from './database-check.js';

/** MySQL's ssl-mode: DISABLED/PREFERRED (or none) in the clear, REQUIRED encrypts, VERIFY_* verify. */
const tlsOf = (_scheme: string, params: URLSearchParams): TlsMode => {
  const mode = (params.get('ssl-mode') ?? '').toUpperCase();
  if (mode === 'REQUIRED') return 'unverified';
  if (mode === 'VERIFY_CA' || mode === 'VERIFY_IDENTITY') return 'verified';
  return 'none';
};

/** Access denied (1044, 1045, 1698), unknown database (1049); any other server error is the query's. */
const AUTH = new Set([1044, 1045, 1049, 1698]);
const kindOf = (e: unknown): string | undefined => {
  const err = e as { errno?: unknown; sqlState?: unknown; code?: unknown; message?: unknown };
  // mysql2 writes its own code over a TLS error's; the message is node's.
  if (err?.code === 'HANDSHAKE_SSL_ERROR' || err?.code === 'HANDSHAKE_NO_SSL_SUPPORT')
    return /altnames/.test(String(err.message)) ? 'tls_hostname_mismatch' : 'tls_invalid';
  if (typeof err?.errno !== 'number' || typeof err.sqlState !== 'string') return undefined;
  return AUTH.has(err.errno) ? 'auth_failed' : 'query_failed';
};

/** Connections whose result was cut off after its first row. */
const cut = new WeakSet<mysql.Connection>();

type Socketed = mysql.Connection & { stream?: { destroy(): void } };

/** `ca`: extra trusted CAs (tests); the system store otherwise. */
export const mysqlDriver = (ca?: TrustedCa): DatabaseDriver<mysql.Connection> => ({
  parse: (url) => parseDatabaseUrl(url, ['mysql', 'mariadb'], 3306, tlsOf),
  open(t, address) {
    const conn = mysql.createConnection({
      // The socket goes to the checked address; `host` stays the name, which TLS verifies.
      host: t.host,
      port: t.port,
      stream: () => capReads(connect({ host: address, port: t.port })),
      user: t.user,
      password: t.password,
      ...(t.database ? { database: t.database } : {}),
      // The check's deadline is the only timer; values stay the text the server sent.
      connectTimeout: 0,
      typeCast: false,
      ...(t.tls === 'none'
        ? {}
        : {
            ssl: {
              rejectUnauthorized: t.tls === 'verified',
              verifyIdentity: t.tls === 'verified',
              // mysql2 types a list as all strings or all buffers; node takes either.
              ...(ca ? { ca: ca as string } : {}),
            },
          }),
    });
    conn.on('error', () => {});
    // mysql2 swaps its stream for a TLS socket in startTLS (no event): that socket is capped too, as
    // the raw one stops reading under TLS.
    const tlsConn = conn as unknown as { startTLS(done: unknown): void; stream: Socket };
    const startTLS = tlsConn.startTLS.bind(conn);
    tlsConn.startTLS = (done) => {
      startTLS(done);
      capReads(tlsConn.stream);
    };
    return conn;
  },
  connect: (conn) =>
    new Promise((resolve, reject) => conn.connect((err: unknown) => (err ? reject(err) : resolve()))),
  query: (conn, sql) =>
    new Promise((resolve, reject) => {
      // Read-only: every statement of the session (one statement a query: multipleStatements is off).
      conn.query('SET SESSION TRANSACTION READ ONLY').on('error', reject);
      // Rows are streamed, not kept: the first value is held, and a second row ends the read.
      const q = conn.query({ sql, rowsAsArray: true });
      let rows = 0;
      let first: unknown = null;
      q.on('result', (row: unknown) => {
        if (!Array.isArray(row)) return; // a statement without rows (its OK packet)
        if (++rows === 1) first = row[0];
        else {
          cut.add(conn);
          resolve(first);
        }
      });
      q.on('end', () => resolve(first));
      q.on('error', reject);
    }),
  close(conn, graceful) {
    // end() sends COM_QUIT once the query is read to its end; a cut-off read or a timeout destroys
    // the socket (the server stops at its next write).
    if (graceful && !cut.has(conn)) conn.end(() => {});
    else {
      conn.destroy();
      (conn as Socketed).stream?.destroy();
    }
  },
  kindOf,
});

/** mysql (and MariaDB) checks: connect with the URL, run `query`, read the first value; closed every run. */
export const createMysqlProber = (opts: DatabaseProberOptions = {}): Prober<'mysql'> =>
  databaseProber(mysqlDriver, opts);
