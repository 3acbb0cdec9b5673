import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, freePort } from './binaries.js';

/**
 * Debian's database servers for the postgres, mysql and redis probers: each started by the test in
 * a temporary directory on a free loopback port, with a user and password made at start. PostgreSQL
 * and MariaDB refuse to run as root, so as root (CI) they run as the user their package made
 * (`postgres`, `mysql`). A missing program fails, saying how to install it.
 */
export interface DatabaseServer {
  /** The server's process (a test stops it with SIGSTOP to make it stop answering). */
  child: ChildProcess;
  /** A connection URL with the test user's password. */
  url: string;
  port: number;
  user: string;
  password: string;
  /** With `tls` given: a URL that asks for verified TLS (redis: on a port of its own). */
  tlsUrl?: string;
  output(): string;
  stop(): Promise<void>;
}

const PASSWORD = 'lookout-S3cret!';

/** A certificate and key, PEM. */
export interface Pem {
  cert: string;
  key: string;
}

/** Writes the server's certificate and key into `dir`, readable by `user` only. */
const writePem = (dir: string, pem: Pem, user: { uid: number; gid: number } | undefined) => {
  const files = { cert: join(dir, 'server.crt'), key: join(dir, 'server.key') };
  writeFileSync(files.cert, pem.cert);
  writeFileSync(files.key, pem.key, { mode: 0o600 });
  if (user) for (const f of Object.values(files)) chownSync(f, user.uid, user.gid);
  return files;
};

/** The uid/gid to run as: the package's user when we are root, ourselves otherwise. */
const runAs = (name: string): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`user ${name} does not exist (its Debian package makes it)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
};

const ownedDir = (prefix: string, user: { uid: number; gid: number } | undefined) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  return dir;
};

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/**
 * Spawns, then waits until the program says `ready` and `port` answers (or fails with its output): the
 * line makes sure the answer is ours, not another process's that took the free port first.
 */
const start = async (
  file: string,
  args: string[],
  opts: { user: { uid: number; gid: number } | undefined; dir: string; ready: RegExp; port: number },
): Promise<{ child: ChildProcess; output(): string; stop(): Promise<void> }> => {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: opts.dir, ...(opts.user ?? {}) });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    }
    rmSync(opts.dir, { recursive: true, force: true });
  };
  const until = Date.now() + 60_000;
  while (!(opts.ready.test(out) && (await portOpen(opts.port)))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`${file} did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, stop };
};

/** The newest Debian PostgreSQL's programs (/usr/lib/postgresql/N/bin), else those on PATH. */
const postgresBin = (name: string) => {
  const root = '/usr/lib/postgresql';
  let versions: string[] = [];
  try {
    versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    // not Debian's layout
  }
  return findBinary(
    [...versions.map((v) => join(root, v, 'bin', name)), name],
    'apt-get install -y postgresql (Debian/Ubuntu)',
  );
};

export const startPostgres = async (opts: { tls?: Pem } = {}): Promise<DatabaseServer> => {
  const initdb = postgresBin('initdb');
  const postgres = postgresBin('postgres');
  const user = runAs('postgres');
  const dir = ownedDir('lookout-pg-', user);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, PASSWORD);
  if (user) chownSync(pwfile, user.uid, user.gid);
  execFileSync(
    initdb,
    ['-D', join(dir, 'data'), '-U', 'lookout', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '--no-sync'],
    { cwd: dir, stdio: 'pipe', ...(user ?? {}) },
  );
  const port = await freePort();
  const pem = opts.tls && writePem(dir, opts.tls, user);
  const ssl = pem ? ['-c', 'ssl=on', '-c', `ssl_cert_file=${pem.cert}`, '-c', `ssl_key_file=${pem.key}`] : [];
  const running = await start(
    postgres,
    [
      ...['-D', join(dir, 'data'), '-p', String(port), '-k', dir],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', ...ssl],
    ],
    { user, dir, ready: /ready to accept connections/, port },
  );
  return {
    ...running,
    url: `postgres://lookout:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/postgres`,
    ...(pem
      ? {
          tlsUrl: `postgres://lookout:${encodeURIComponent(PASSWORD)}@localhost:${port}/postgres?sslmode=verify-full`,
        }
      : {}),
    port,
    user: 'lookout',
    password: PASSWORD,
  };
};

export const startMariadb = async (opts: { tls?: Pem } = {}): Promise<DatabaseServer> => {
  const install = findBinary(['mariadb-install-db', 'mysql_install_db'], 'apt-get install -y mariadb-server');
  const mariadbd = findBinary(
    ['mariadbd', '/usr/sbin/mariadbd', 'mysqld', '/usr/sbin/mysqld'],
    'apt-get install -y mariadb-server',
  );
  const user = runAs('mysql');
  const dir = ownedDir('lookout-mariadb-', user);
  const data = join(dir, 'data');
  mkdirSync(data);
  if (user) chownSync(data, user.uid, user.gid);
  execFileSync(
    install,
    [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=socket',
      '--skip-test-db',
      ...(user ? ['--user=mysql'] : []),
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  const init = join(dir, 'init.sql');
  writeFileSync(
    init,
    `CREATE USER IF NOT EXISTS 'lookout'@'%' IDENTIFIED BY '${PASSWORD}';\nCREATE DATABASE IF NOT EXISTS lookout;\nGRANT ALL ON lookout.* TO 'lookout'@'%';\nGRANT PROCESS ON *.* TO 'lookout'@'%';\n`,
  );
  if (user) chownSync(init, user.uid, user.gid);
  const port = await freePort();
  const pem = opts.tls && writePem(dir, opts.tls, user);
  const running = await start(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mysqld.sock')}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--init-file=${init}`,
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=16M',
      ...(pem ? [`--ssl-cert=${pem.cert}`, `--ssl-key=${pem.key}`] : []),
      ...(user ? ['--user=mysql'] : []),
    ],
    { user: undefined, dir, ready: /ready for connections/, port },
  );
  return {
    ...running,
    url: `mysql://lookout:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/lookout`,
    ...(pem
      ? {
          tlsUrl: `mysql://lookout:${encodeURIComponent(PASSWORD)}@localhost:${port}/lookout?ssl-mode=VERIFY_IDENTITY`,
        }
      : {}),
    port,
    user: 'lookout',
    password: PASSWORD,
  };
};

export const startRedis = async (opts: { tls?: Pem } = {}): Promise<DatabaseServer> => {
  const redis = findBinary(['redis-server'], 'apt-get install -y redis-server');
  const user = runAs('redis');
  const dir = ownedDir('lookout-redis-', user);
  const port = await freePort();
  const pem = opts.tls && writePem(dir, opts.tls, user);
  const tlsPort = pem ? await freePort() : 0;
  const tls = pem
    ? [
        '--tls-port',
        String(tlsPort),
        '--tls-cert-file',
        pem.cert,
        '--tls-key-file',
        pem.key,
        '--tls-auth-clients',
        'no',
      ]
    : [];
  const running = await start(
    redis,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--requirepass',
      PASSWORD,
      ...tls,
    ],
    { user, dir, ready: /Ready to accept connections/, port },
  );
  return {
    ...running,
    url: `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/0`,
    ...(pem ? { tlsUrl: `rediss://:${encodeURIComponent(PASSWORD)}@localhost:${tlsPort}/0` } : {}),
    port,
    user: '',
    password: PASSWORD,
  };
};
