import { Redis } from 'ioredis';
import type { Prober } from '../probe-port.js';
import {
  capReads,
  type DatabaseDriver,
  type DatabaseProberOptions,
  databaseProber,
  parseDatabaseUrl,
  serverName,
  TargetError,
  type TrustedCa,
} from './database-check.js';

/**
 * A command line as redis-cli reads it: words split on spaces, "double" or 'single' quoted words
 * kept whole (\" and \\ inside double quotes). Throws on an unclosed quote.
 */
export const commandWords = (line: string): string[] => {
  const words: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"']+))/gy;
  let at = 0;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    at = re.lastIndex;
    if (m[1] !== undefined) words.push(m[1].replace(/\\(.)/g, '$1'));
    else words.push(m[2] ?? m[3]!);
  }
  if (line.slice(at).trim()) throw new QueryError('the command has an unclosed quote');
  return words;
};

/**
 * The commands a check may run: reads of data and of the server's state. Nothing that writes, blocks
 * for long (KEYS, SCAN over everything), or administers: a check must not be a way to change someone's
 * Redis from the agent's address.
 */
export const READ_COMMANDS = new Set(
  (
    'PING ECHO GET MGET EXISTS TYPE TTL PTTL STRLEN GETRANGE GETBIT BITCOUNT LLEN LRANGE LINDEX HGET HMGET ' +
    'HGETALL HLEN HEXISTS HKEYS HVALS HSTRLEN SCARD SISMEMBER SMISMEMBER SMEMBERS ZCARD ZSCORE ZMSCORE ZRANK ' +
    'ZREVRANK ZRANGE ZCOUNT XLEN XRANGE XREVRANGE XREAD INFO DBSIZE TIME ROLE LASTSAVE'
  ).split(' '),
);

class QueryError extends Error {
  readonly code = 'EQUERY';
}

/** Redis replies with an error word first: NOAUTH and WRONGPASS are credentials, others the command's. */
const kindOf = (e: unknown): string | undefined => {
  if (e instanceof QueryError) return 'query_failed';
  const err = e as { name?: unknown; message?: unknown };
  if (err?.name !== 'ReplyError' || typeof err.message !== 'string') return undefined;
  return /^(NOAUTH|WRONGPASS|NOPERM)\b/.test(err.message) ? 'auth_failed' : 'query_failed';
};

const failures = new WeakMap<Redis, unknown>();

/** `ca`: extra trusted CAs (tests); the system store otherwise. */
export const redisDriver = (ca?: TrustedCa): DatabaseDriver<Redis> => ({
  parse: (url) =>
    parseDatabaseUrl(url, ['redis', 'rediss'], 6379, (scheme) => (scheme === 'rediss' ? 'verified' : 'none')),
  open(t, address) {
    const name = serverName(t.host);
    const db = t.database ? Number(t.database) : 0;
    if (!Number.isInteger(db) || db < 0)
      throw new TargetError('the database in the connection URL must be a number');
    const client = new Redis({
      host: address,
      port: t.port,
      ...(t.user ? { username: t.user } : {}),
      ...(t.password ? { password: t.password } : {}),
      db,
      ...(t.tls === 'none' ? {} : { tls: { ...(name ? { servername: name } : {}), ...(ca ? { ca } : {}) } }),
      // One connection, one command, no retries, no handshake beyond AUTH/SELECT (RESP2, any Redis),
      // no timers of its own: the check's deadline decides.
      lazyConnect: true,
      protocol: 2,
      enableReadyCheck: false,
      disableClientInfo: true,
      maintNotifications: 'disabled',
      retryStrategy: () => null,
      reconnectOnError: null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      connectTimeout: 0,
      keepAlive: 0,
    });
    client.on('error', (e) => failures.set(client, e));
    // ioredis makes its socket as it connects: capped from then on (before AUTH's reply).
    client.once('connect', () => capReads(client.stream));
    return client;
  },
  // A failed connect rejects with "Connection is closed."; the cause (refused, WRONGPASS…) came as an event.
  connect: (client) =>
    client.connect().catch((e: unknown) => {
      throw failures.get(client) ?? e;
    }),
  query: async (client, line) => {
    const [command, ...args] = commandWords(line);
    if (!command) throw new QueryError('the command is empty');
    if (!READ_COMMANDS.has(command.toUpperCase()))
      throw new QueryError(`${command} is not a command a check may run (reads only: PING, GET, INFO, …)`);
    return client.call(command, ...args).catch((e: unknown) => {
      throw failures.get(client) ?? e;
    });
  },
  close: (client) => client.disconnect(),
  kindOf,
});

/** redis checks: connect with the URL, run `query` (a command line), read the reply; closed every run. */
export const createRedisProber = (opts: DatabaseProberOptions = {}): Prober<'redis'> =>
  databaseProber(redisDriver, opts);
