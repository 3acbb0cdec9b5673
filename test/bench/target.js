// The HTTP target of the whole-system bench: 200 "ok" on 32 loopback ports (see target-server.js for
// why 32). Two kinds:
//   nginx  Debian's nginx (`apt-get install nginx`), one worker: what the issue's floor was measured
//          against. A C server answers a fresh connection for a fraction of Node's CPU, and on a 2-core
//          box every core the target takes is one the measured processes do not get (real targets are
//          other machines).
//   node   target-server.js: node:http in one process, when nginx is not installed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = '/usr/sbin/nginx';
const COUNT = 32;

/** `requested` ('nginx', 'node', or undefined: nginx when installed). */
export const targetKind = (requested) => {
  const kind = requested ?? (existsSync(NGINX) ? 'nginx' : 'node');
  if (kind !== 'nginx' && kind !== 'node') throw new Error(`--target must be nginx or node, got ${kind}`);
  if (kind === 'nginx' && !existsSync(NGINX)) throw new Error(`--target nginx: ${NGINX} is not installed`);
  return kind;
};

/** Free loopback ports, found by listening on port 0 (nginx cannot report the ones it took). */
const freePorts = async (n) => {
  const servers = [];
  for (let i = 0; i < n; i++) {
    const s = createServer();
    await new Promise((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
  }
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
};

const accepts = (port) =>
  new Promise((resolve) => {
    const c = createConnection({ host: '127.0.0.1', port }, () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

/** Starts the target; resolves with its kind, child process and ports. `stop()` ends it and its files. */
export const startTarget = async (kind, onExit) => {
  if (kind === 'node') {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'target-server.js')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ports = await new Promise((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d;
        const m = buf.match(/READY ([\d,]+)/);
        if (m) resolve(m[1].split(',').map(Number));
      });
      child.once('exit', (c) => reject(new Error(`target exited ${c}`)));
    });
    child.once('exit', (c) => onExit?.(c));
    return { kind, child, ports, stop: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lookout-bench-nginx-'));
  const ports = await freePorts(COUNT);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${join(dir, t)};`)
    .join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 8192; }
http {
  access_log off;
  ${temp}
  server {
${ports.map((p) => `    listen 127.0.0.1:${p};`).join('\n')}
    location / { default_type text/plain; return 200 "ok"; }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = null;
  child.once('exit', (c) => {
    exited = c;
    onExit?.(c);
  });
  for (let i = 0; !(await accepts(ports[COUNT - 1])); i++) {
    if (exited !== null || i > 100)
      throw new Error(`nginx did not start (exit ${exited}); see ${dir}/error.log`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { kind, child, ports, stop: () => rmSync(dir, { recursive: true, force: true }) };
};
