// npm run bench -- databases [--seconds N] [--rounds N] [--dry-run]: postgres, mysql and redis checks
// per second per core, the agent's probers against a bare loop doing the same work (connect, sign in,
// the default query, close), in one process, in the same run, rounds alternating.
// The servers are Debian's postgresql, mariadb-server and redis-server, started as test:peers starts them.
import { connect } from 'node:net';
import mysql from 'mysql2';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { CheckDeadline } from '../../agent/dist/deadline.js';
import { createMysqlProber } from '../../agent/dist/probers/mysql-prober.js';
import { createPostgresProber } from '../../agent/dist/probers/postgres-prober.js';
import { createRedisProber } from '../../agent/dist/probers/redis-prober.js';
import { machine, writeSection } from './report.js';

const servers = await tsImport('../peers/support/databases.ts', import.meta.url);

/** The bare loops: the client library's plainest use, a fresh connection per check as the probers make. */
const bare = {
  postgres: (s) => async () => {
    const c = new pg.Client({
      host: '127.0.0.1',
      port: s.port,
      user: s.user,
      password: s.password,
      database: 'postgres',
    });
    await c.connect();
    await c.query('SELECT 1');
    await c.end();
  },
  mysql: (s) => async () => {
    const c = mysql.createConnection({
      host: '127.0.0.1',
      port: s.port,
      user: s.user,
      password: s.password,
      database: 'lookout',
    });
    await c.promise().query('SELECT 1');
    await c.promise().end();
  },
  // RESP by hand over node:net (AUTH and PING in one write, then close): ioredis with its defaults
  // adds HELLO, CLIENT SETINFO and a ready check, which the prober turns off.
  redis: (s) => () =>
    new Promise((resolve, reject) => {
      const pw = s.password;
      const socket = connect(s.port, '127.0.0.1');
      let got = '';
      socket.setEncoding('utf8');
      socket.once('connect', () =>
        socket.write(`*2\r\n$4\r\nAUTH\r\n$${Buffer.byteLength(pw)}\r\n${pw}\r\n*1\r\n$4\r\nPING\r\n`),
      );
      socket.on('data', (d) => {
        got += d;
        if (got.length < 12) return;
        socket.destroy();
        resolve(got === '+OK\r\n+PONG\r\n');
      });
      socket.once('error', reject);
    }),
};

const types = [
  { type: 'postgres', start: servers.startPostgres, prober: createPostgresProber(), query: 'SELECT 1' },
  { type: 'mysql', start: servers.startMariadb, prober: createMysqlProber(), query: 'SELECT 1' },
  { type: 'redis', start: servers.startRedis, prober: createRedisProber(), query: 'PING' },
];

/** `concurrency` loops of `one` for `seconds`: checks done, failures, and this process's CPU. */
const loop = async (one, seconds, concurrency) => {
  let done = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        try {
          if ((await one()) === false) failed++;
          else done++;
        } catch {
          failed++;
        }
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { done, failed, cpuMs: (cpu.user + cpu.system) / 1000, rate: done / seconds };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const run = async (args) => {
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const seconds = opt('seconds', 3);
  const rounds = opt('rounds', 3);
  const concurrency = 8;
  const rows = [];
  for (const t of types) {
    const server = await t.start();
    try {
      const spec = {
        monitor_id: 'bench',
        monitor_type: t.type,
        url: server.url,
        timeout_ms: 5000,
        settings: { query: t.query, assertions: [] },
      };
      const sides = {
        prober: async () => (await t.prober.run(spec, new CheckDeadline())).ok,
        bare: bare[t.type](server),
      };
      const got = { prober: [], bare: [] };
      // Warm both (JIT, the server's caches), then alternate which goes first.
      await loop(sides.prober, 1, concurrency);
      await loop(sides.bare, 1, concurrency);
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? ['bare', 'prober'] : ['prober', 'bare']) {
          const res = await loop(sides[side], seconds, concurrency);
          if (res.failed) throw new Error(`${t.type} ${side}: ${res.failed} checks failed`);
          got[side].push(res);
        }
      }
      const perCore = (rs) => median(rs.map((x) => (x.done / x.cpuMs) * 1000));
      const rate = (rs) => median(rs.map((x) => x.rate));
      rows.push({
        type: t.type,
        prober: perCore(got.prober),
        bare: perCore(got.bare),
        proberRate: rate(got.prober),
        bareRate: rate(got.bare),
      });
      process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    } finally {
      await server.stop();
    }
  }
  const f = (n) => Math.round(n).toLocaleString('en-US');
  const figures = rows
    .map(
      (r) =>
        `${r.type} ${f(r.prober)} against ${f(r.bare)} (**${(r.prober / r.bare).toFixed(2)}×**; ${f(r.proberRate)} and ${f(r.bareRate)} a second of wall time)`,
    )
    .join('; ');
  // Heading and one paragraph: docs/benchmarks.md stays under its line budget.
  const text = [
    '### Database checks (`npm run bench -- databases`)',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()}. Debian's postgresql, mariadb-server and redis-server (as test:peers starts them: loopback, a password; postgres signs in with SCRAM-SHA-256), each checked by the agent's prober and by a bare loop doing the same work (a fresh connection, sign in, the default query, close: \`pg\` and \`mysql2\` used plainly, RESP written by hand over \`node:net\` for redis), ${concurrency} at a time, ${rounds} rounds of ${seconds} s each alternating in one process. Checks per second of the bench process's CPU (the median round), prober against bare loop: ${figures}.`,
  ].join('\n');
  if (args.includes('--dry-run')) process.stdout.write(`${text}\n`);
  else writeSection('databases', text);
};
