import { type AddressInfo, createServer, type Server } from 'node:net';
import type { Assertion } from '@lookout/shared';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, selfSigned } from '../../../test/support/certs.js';
import { probeWithDeadline } from '../deadline.js';
import type { ProbeSpec, SmtpSettings } from '../probe-port.js';
import { realTimers } from '../scheduler.js';
import { createProbers } from './index.js';
import { createSmtpProber } from './smtp-prober.js';

/** smtp checks against smtp-server on loopback, with certificates made at test time. */
const ca = makeCa();
const leaf = ca.leaf(['localhost', '127.0.0.1'], 30);
const prober = createSmtpProber({ ca: ca.pem.cert });

const servers: { close(cb: () => void): void }[] = [];
const sockets = new Set<import('node:net').Socket>();
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

const startSmtp = async (options: SMTPServerOptions) => {
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    banner: 'Lookout test',
    closeTimeout: 100,
    ...options,
  });
  // Checks that give up mid-handshake (a refused certificate, a deadline) are errors to the server.
  server.on('error', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  return ((server as unknown as { server: Server }).server.address() as AddressInfo).port;
};

/** A bare TCP server that answers each connection with `script`. */
const startRaw = async (script: (socket: import('node:net').Socket) => void) => {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    script(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  return (server.address() as AddressInfo).port;
};

const spec = (
  port: number,
  over: Partial<SmtpSettings> & { url?: string; timeout_ms?: number; assertions?: Assertion[] } = {},
) =>
  ({
    monitor_id: 'm-smtp',
    monitor_type: 'smtp',
    url: over.url ?? '127.0.0.1',
    timeout_ms: over.timeout_ms ?? 3000,
    settings: {
      port,
      smtp_security: over.smtp_security ?? 'none',
      ssl_cert_monitoring: over.ssl_cert_monitoring ?? false,
      assertions: over.assertions ?? [],
    },
  }) satisfies ProbeSpec<'smtp'>;

const run = (s: ProbeSpec<'smtp'>, p = prober) => probeWithDeadline(p, s, realTimers);

let plainPort: number;
let starttlsPort: number;
let implicitPort: number;
beforeAll(async () => {
  plainPort = await startSmtp({ hideSTARTTLS: true });
  starttlsPort = await startSmtp({ key: leaf.key, cert: leaf.cert });
  implicitPort = await startSmtp({ secure: true, key: leaf.key, cert: leaf.cert });
});

describe('smtp prober against smtp-server', () => {
  it('none: banner and EHLO, up, with connect and first-byte timings', async () => {
    const o = await run(spec(plainPort));
    expect(o).toMatchObject({ ok: true, error: null });
    expect(o.timings!.connect_ms).toBeGreaterThan(0);
    expect(o.timings!.first_byte_ms).toBeGreaterThanOrEqual(o.timings!.connect_ms);
    expect(o.tls).toBeUndefined();
  });

  it('starttls: upgrades, EHLO again; the certificate is reported with ssl_cert_monitoring', async () => {
    const o = await run(
      spec(starttlsPort, { url: 'localhost', smtp_security: 'starttls', ssl_cert_monitoring: true }),
    );
    expect(o).toMatchObject({
      ok: true,
      error: null,
      tls: { subject: 'localhost', issuer: 'Lookout Test CA' },
    });
    expect(o.tls!.days_remaining).toBeGreaterThanOrEqual(29);
    expect(o.tls!.days_remaining).toBeLessThanOrEqual(30);
    expect(o.timings!.tls_ms).toBeGreaterThan(0);
    const quiet = await run(spec(starttlsPort, { smtp_security: 'starttls' }));
    expect(quiet).toMatchObject({ ok: true });
    expect(quiet.tls).toBeUndefined();
  });

  it('tls: implicit TLS from the first byte, certificate reported', async () => {
    const o = await run(spec(implicitPort, { smtp_security: 'tls', ssl_cert_monitoring: true }));
    expect(o).toMatchObject({ ok: true, error: null, tls: { subject: 'localhost' } });
    const plainOnTls = await run(spec(implicitPort, { timeout_ms: 500 }));
    expect(plainOnTls.ok).toBe(false);
  });

  it('starttls asked of a server that does not offer it fails saying so', async () => {
    const o = await run(spec(plainPort, { smtp_security: 'starttls' }));
    expect(o).toMatchObject({
      ok: false,
      error: { kind: 'smtp_error', message: 'the server does not offer STARTTLS' },
    });
  });

  it('a certificate no one trusts, or for another name, fails as TLS', async () => {
    const self = selfSigned(['localhost', '127.0.0.1']);
    const port = await startSmtp({ key: self.key, cert: self.cert });
    const o = await run(spec(port, { smtp_security: 'starttls' }));
    expect(o).toMatchObject({ ok: false, error: { kind: 'tls_invalid' } });
    const other = ca.leaf(['mail.example.test'], 30);
    const wrongName = await startSmtp({ secure: true, key: other.key, cert: other.cert });
    const w = await run(spec(wrongName, { url: 'localhost', smtp_security: 'tls' }));
    expect(w).toMatchObject({ ok: false, error: { kind: 'tls_hostname_mismatch' } });
  });

  it('a refusing banner, a refused port and a silent server each fail naming the cause', async () => {
    const refusing = await startRaw((s) => s.end('554 5.3.2 No service here\r\n'));
    expect(await run(spec(refusing))).toMatchObject({
      ok: false,
      error: { kind: 'smtp_error', message: 'the banner answered 554 5.3.2 No service here' },
    });
    const closed = await startRaw(() => {});
    const port = closed;
    await new Promise<void>((r) => (servers.pop() as Server).close(() => r()));
    expect(await run(spec(port))).toMatchObject({ ok: false, error: { kind: 'connection_refused' } });
    const silent = await startRaw(() => {});
    expect(await run(spec(silent, { timeout_ms: 200 }))).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
    // Silent during the TLS handshake, implicit or after STARTTLS: the deadline still ends the check.
    expect(await run(spec(silent, { timeout_ms: 200, smtp_security: 'tls' }))).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
    const stalls = await startRaw((s) => {
      s.write('220 hi\r\n');
      s.on('data', (d) => {
        if (/^EHLO/.test(String(d))) s.write('250-hi\r\n250 STARTTLS\r\n');
        else if (/^STARTTLS/.test(String(d))) s.write('220 go ahead\r\n');
      });
    });
    expect(await run(spec(stalls, { timeout_ms: 300, smtp_security: 'starttls' }))).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
  });

  it('a hostile server: endless reply lines and non-SMTP text fail the check, nothing more', async () => {
    const endless = await startRaw((s) => {
      const line = `220-${'x'.repeat(1000)}\r\n`;
      const pump = () => {
        while (!s.destroyed && s.write(line));
        if (!s.destroyed) s.once('drain', pump);
      };
      pump();
    });
    expect(await run(spec(endless))).toMatchObject({
      ok: false,
      error: { kind: 'smtp_error', message: 'a reply longer than 16384 bytes' },
    });
    const http = await startRaw((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const o = await run(spec(http));
    expect(o).toMatchObject({ ok: false, error: { kind: 'smtp_error' } });
    expect(o.error!.message).toMatch(/^not an SMTP reply: "HTTP\/1.1 400/);
  });

  it('assertions on response_time: a failing one names the actual value', async () => {
    const o = await run(
      spec(plainPort, {
        assertions: [{ source: 'response_time', property: '', comparison: 'greater_than', target: '60000' }],
      }),
    );
    expect(o.ok).toBe(false);
    expect(o.error).toMatchObject({ kind: 'assertion_failed' });
    expect(o.error!.message).toMatch(/^response_time was [\d.]+, expected greater_than "60000"$/);
  });

  it('the SSRF guard refuses loopback by address and by name', async () => {
    const guarded = createSmtpProber({ ca: ca.pem.cert, blockPrivate: true });
    for (const url of ['127.0.0.1', 'localhost', '[::1]']) {
      for (const smtp_security of ['none', 'tls'] as const) {
        const o = await run(spec(plainPort, { url, smtp_security }), guarded);
        expect(o, `${url} ${smtp_security}`).toMatchObject({ ok: false, error: { kind: 'blocked_target' } });
      }
    }
  });

  it('every agent offers smtp, and its probers run it', async () => {
    const probers = createProbers({ ca: ca.pem.cert });
    expect(probers.types).toContain('smtp');
    expect(await run(spec(starttlsPort, { smtp_security: 'starttls' }), probers)).toMatchObject({ ok: true });
  });
});
