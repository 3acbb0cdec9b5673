import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { verifySignature } from '../../control-plane/src/notify/webhook.js';

export interface Hit {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json: any;
  /** Whether X-Lookout-Signature verified with the secret set for the path (null: none set). */
  verified: boolean | null;
}

/**
 * A real HTTP receiver on a loopback port: records every request, verifies webhook signatures with
 * the secret registered for its path, and answers with queued statuses (default 200). `hold(path)`
 * makes requests to a path hang until released.
 */
export const startReceiver = async (opts: { nowSeconds?: () => number } = {}) => {
  const hits: Hit[] = [];
  /** Requests to held paths: arrived, never answered. */
  const pending: Hit[] = [];
  const secrets = new Map<string, string>();
  const statuses = new Map<string, number[]>();
  const held = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const path = req.url ?? '/';
      const secret = secrets.get(path);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const verified = secret
        ? verifySignature(
            secret,
            req.headers['x-lookout-signature'] as string | undefined,
            body,
            opts.nowSeconds?.() ?? Math.floor(Date.now() / 1000),
          )
        : null;
      const hit = { path, headers: req.headers, body, json, verified };
      if (held.has(path)) {
        pending.push(hit); // never answered: the sender is stuck mid-request
        return;
      }
      hits.push(hit);
      res.writeHead(statuses.get(path)?.shift() ?? 200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits,
    pending,
    on: (path: string) => hits.filter((h) => h.path === path),
    secret(path: string, s: string) {
      secrets.set(path, s);
    },
    reply(path: string, ...codes: number[]) {
      statuses.set(path, codes);
    },
    hold(path: string, on = true) {
      if (on) held.add(path);
      else held.delete(path);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A real SMTP server (smtp-server) on a loopback port; every mail is parsed with mailparser. */
export const startSmtp = async () => {
  const mails: (ParsedMail & { rcpt: string[] })[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((m) => {
          mails.push(Object.assign(m, { rcpt: session.envelope.rcptTo.map((r) => r.address) }));
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};
