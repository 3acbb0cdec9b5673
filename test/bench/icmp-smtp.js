// ping and smtp checks per core: the agent's probers against a bare loop of the same protocol, in
// the same run, alternating A B A B. CPU is this process's plus its reaped children's (fping), read
// from /proc/self/stat; the smtp server runs in its own process on core 1 and is not counted.
// ping: HOSTS loopback addresses (127.1.x.y, all answered), 3 echoes each, all due at once: the
// prober (checks share fping processes) against one bare `fping -C 3` over the same addresses.
// smtp: CONCURRENCY checks in flight for SECONDS against smtp-server, plain and STARTTLS: the prober
// against a bare client that speaks the same lines (banner, EHLO, [STARTTLS, EHLO], QUIT).
// Env: HOSTS (256), ROUNDS (6), SECONDS (8), CONCURRENCY (16).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { CheckDeadline } from '../../agent/dist/deadline.js';
import { findFping, runFping } from '../../agent/dist/probers/fping.js';
import { createPingProber } from '../../agent/dist/probers/ping-prober.js';
import { createSmtpProber } from '../../agent/dist/probers/smtp-prober.js';
import { machine, writeSection } from './report.js';
import { linux, spawnPinned, waitLine } from './support.js';

const HOSTS = Number(process.env.HOSTS ?? 256);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SECONDS = Number(process.env.SECONDS ?? 8);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const COUNT = 3;
const TIMEOUT_MS = 1000;
/** The period the prober picks for COUNT echoes in TIMEOUT_MS (ping-prober.ts). */
const PERIOD_MS = Math.floor((TIMEOUT_MS - 20) / (COUNT + 1));

/** CPU ms of this process and of its children that have ended (clock ticks of 10 ms). */
const cpuMs = () => {
  const c = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (c.user + c.system) / 1000 + (Number(f[13]) + Number(f[14])) * 10;
};

const measure = async (fn) => {
  const c0 = cpuMs();
  const t0 = performance.now();
  const r = await fn();
  return { ...r, cpuMs: cpuMs() - c0, wallMs: performance.now() - t0 };
};

const pingSpec = (url) => ({
  monitor_id: url,
  monitor_type: 'ping',
  url,
  timeout_ms: TIMEOUT_MS,
  settings: { packet_count: COUNT, assertions: [] },
});

const icmp = async (fping) => {
  const hosts = Array.from({ length: HOSTS }, (_, i) => `127.1.${i >> 8}.${(i & 255) + 1}`);
  const prober = createPingProber({ fping });
  const bare = () =>
    measure(async () => {
      const r = await runFping(fping, { count: COUNT, periodMs: PERIOD_MS, addresses: hosts }).done;
      let answered = 0;
      for (const h of hosts) answered += r.replies.get(h)?.rtts.length ?? 0;
      return { answered };
    });
  const probed = () =>
    measure(async () => {
      const out = await Promise.all(hosts.map((h) => prober.run(pingSpec(h), new CheckDeadline())));
      let answered = 0;
      for (const o of out) answered += o.ok ? Math.round(COUNT * (1 - (o.packet_loss ?? 0) / 100)) : 0;
      return { answered };
    });
  const sides = { bare: [], prober: [] };
  for (let i = 0; i < ROUNDS; i++) {
    sides.bare.push(await bare());
    sides.prober.push(await probed());
  }
  const sum = (runs) => {
    const answered = runs.reduce((a, r) => a + r.answered, 0);
    const cpu = runs.reduce((a, r) => a + r.cpuMs, 0);
    return { answered, sent: runs.length * HOSTS * COUNT, perCore: Math.round(answered / (cpu / 1000)) };
  };
  return { bare: sum(sides.bare), prober: sum(sides.prober) };
};

/** One SMTP conversation spoken by hand: banner, EHLO, [STARTTLS, EHLO], QUIT. */
const bareSmtp = (port, starttls, ca) =>
  new Promise((resolve) => {
    let socket = connect({ host: '127.0.0.1', port });
    let buf = '';
    let step = 0;
    const fail = () => {
      socket.destroy();
      resolve(false);
    };
    const reply = () => {
      for (;;) {
        const i = buf.indexOf('\n');
        if (i < 0) return null;
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line[3] !== '-') return Number(line.slice(0, 3));
      }
    };
    const onData = (d) => {
      buf += d;
      const code = reply();
      if (code === null) return;
      switch (step++) {
        case 0:
          if (code !== 220) return fail();
          return socket.write('EHLO [127.0.0.1]\r\n');
        case 1:
          if (code !== 250) return fail();
          if (starttls) return socket.write('STARTTLS\r\n');
          step = 4;
          return socket.write('QUIT\r\n');
        case 2: {
          if (code !== 220) return fail();
          socket.removeListener('data', onData);
          const secure = tlsConnect({ socket, ca });
          secure.setEncoding('latin1');
          secure.on('data', onData);
          secure.on('error', fail);
          secure.once('secureConnect', () => secure.write('EHLO [127.0.0.1]\r\n'));
          socket = secure;
          return;
        }
        case 3:
          if (code !== 250) return fail();
          return socket.write('QUIT\r\n');
        default:
          socket.destroy();
          resolve(code === 221);
      }
    };
    socket.setEncoding('latin1');
    socket.on('data', onData);
    socket.on('error', fail);
  });

const loop = (one) =>
  measure(async () => {
    const end = performance.now() + SECONDS * 1000;
    let done = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) (await one()) ? done++ : failed++;
      }),
    );
    return { done, failed };
  });

const smtp = async (port, ca) => {
  const prober = createSmtpProber({ ca });
  const spec = (smtp_security) => ({
    monitor_id: 'm',
    monitor_type: 'smtp',
    url: '127.0.0.1',
    timeout_ms: 5000,
    settings: { port, smtp_security, ssl_cert_monitoring: smtp_security !== 'none', assertions: [] },
  });
  const out = {};
  for (const security of ['none', 'starttls']) {
    const runs = { bare: [], prober: [] };
    for (let i = 0; i < 2; i++) {
      runs.bare.push(await loop(() => bareSmtp(port, security === 'starttls', ca)));
      runs.prober.push(await loop(() => prober.run(spec(security), new CheckDeadline()).then((o) => o.ok)));
    }
    const sum = (rs) => {
      const done = rs.reduce((a, r) => a + r.done, 0);
      const failed = rs.reduce((a, r) => a + r.failed, 0);
      const cpu = rs.reduce((a, r) => a + r.cpuMs, 0);
      return { done, failed, perCore: Math.round(done / (cpu / 1000)) };
    };
    out[security] = { bare: sum(runs.bare), prober: sum(runs.prober) };
  }
  return out;
};

export const run = async () => {
  if (linux) spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)]);
  const found = await findFping();
  if (!found.program) throw new Error(`fping does not run here: ${found.why}`);
  const ping = await icmp(found.program);
  console.log('ping', JSON.stringify(ping));

  const dir = mkdtempSync(join(tmpdir(), 'lookout-smtp-bench-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-days',
    '2',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  const server = spawnPinned(1, [
    process.execPath,
    join(import.meta.dirname, 'smtp-bench-server.js'),
    `${cert},${key}`,
  ]);
  let mail;
  try {
    const port = Number((await waitLine(server, /port=(\d+)/))[1]);
    mail = await smtp(port, readFileSync(cert, 'utf8'));
    console.log('smtp', JSON.stringify(mail));
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (a, b) => (a / b).toFixed(2);
  const s = (side) => `${side.perCore.toLocaleString('en')}/s`;
  writeSection(
    'icmp-smtp',
    `### ping and smtp checks per core (\`npm run bench -- icmp-smtp\`)
Run ${new Date().toISOString().slice(0, 16)} UTC, ${machine()}, \`test/bench/icmp-smtp.js\`; per core = work done ÷ CPU seconds of the bench process and its fping children (the smtp server runs apart), sides alternated in the same run. **ping**: ${HOSTS} loopback addresses × ${COUNT} echoes, all due at once, ${ROUNDS} rounds a side: the prober (checks sharing fping processes of up to 128 addresses) **${s(ping.prober)}** echoes answered per core (${ping.prober.answered}/${ping.prober.sent}) against one bare \`fping -C ${COUNT}\` over the same addresses ${s(ping.bare)} (${ping.bare.answered}/${ping.bare.sent}): ${ratio(ping.prober.perCore, ping.bare.perCore)} × the bare rate. **smtp** (${CONCURRENCY} in flight, 2 × ${SECONDS} s a side, smtp-server on loopback): plain, the prober **${s(mail.none.prober)}** checks per core against a bare client speaking the same lines ${s(mail.none.bare)} (${ratio(mail.none.prober.perCore, mail.none.bare.perCore)} ×); STARTTLS (certificate read), **${s(mail.starttls.prober)}** against ${s(mail.starttls.bare)} (${ratio(mail.starttls.prober.perCore, mail.starttls.bare.perCore)} ×); failures ${mail.none.prober.failed + mail.starttls.prober.failed} / ${mail.none.bare.failed + mail.starttls.bare.failed}.`,
  );
};
