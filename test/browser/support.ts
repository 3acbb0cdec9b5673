import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService, CheckResultSchema } from '@lookout/proto';
import { type Browser, chromium } from 'playwright-core';
import { exited, MAIN, runCli, startProcess } from '../support/processes.js';

/** Debian's chromium; never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The control plane as `npm start` runs it (a real process, first start on a fresh data dir, a free
 * port), with what it printed once: the demo admin's password and API key.
 */
export const startLookout = async (extraEnv: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-browser-'));
  const env = {
    LOOKOUT_DATA_DIR: dir,
    LOOKOUT_HTTP_PORT: '0',
    LOOKOUT_RPC_PORT: '0',
    LOOKOUT_LOG_LEVEL: 'warn',
    // Every success response is checked against the schema its route declares (response-check.ts).
    LOOKOUT_VALIDATE_RESPONSES: 'true',
    // Tests' notification receivers listen on loopback.
    LOOKOUT_NOTIFY_ALLOW_PRIVATE: 'true',
    // One message per alert, at once, as the e2e harness has it: grouped notifications (which hold a
    // recovery until the group's next interval) have their own tests (test/e2e/grouped-notifications).
    LOOKOUT_NOTIFY_GROUP_INTERVAL_SECONDS: '0',
    ...extraEnv,
  };
  const { child, output } = await startProcess(MAIN, env, /Try: curl/);
  const printed = output();
  const port = Number(/API:\s+http:\/\/demo\.localhost:(\d+)\/api\/v1/.exec(printed)![1]);
  const password = /admin password:\s+(\S+)/.exec(printed)![1]!;
  const apiKey = /API key:\s+(ak\.\S+)/.exec(printed)![1]!;
  const rpcUrl = /agents connect:\s+(\S+)/.exec(printed)![1]!;
  const cli = async (args: string[]) => {
    const r = await runCli([...args, '--json'], env);
    if (r.code !== 0) throw new Error(`lookout ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  return {
    port,
    rpcUrl,
    password,
    apiKey,
    adminEmail: 'admin@demo.localhost',
    url: (subdomain: string, path = '/') => `http://${subdomain}.localhost:${port}${path}`,
    cli,
    /** A plain HTTP call to the API from outside the browser (a script with a key, or a stolen cookie). */
    api: (
      subdomain: string,
      path: string,
      headers: Record<string, string>,
      send?: { method: string; json?: unknown },
    ) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const payload = send?.json === undefined ? undefined : JSON.stringify(send.json);
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: send?.method ?? 'GET',
            path: `/api/v1${path}`,
            headers: {
              host: `${subdomain}.localhost`,
              ...(payload ? { 'content-type': 'application/json' } : {}),
              ...headers,
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      }),
    async stop() {
      (child as ChildProcess).kill('SIGTERM');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export type Lookout = Awaited<ReturnType<typeof startLookout>>;

/** One check as a test agent reports it. */
export interface TestResult {
  monitorId: string;
  at: Date;
  ok: boolean;
  responseTimeMs?: number;
  statusCode?: number;
  error?: string;
  /** The error's kind on a failure; http_status unless said. */
  errorKind?: string;
}

/**
 * An agent of `region` that reports the results it is given, over the agent protocol the real agents
 * speak (gRPC, a region token made with the CLI, Register then ReportResults): history of any length
 * and shape through the real ingestion path, without waiting for real checks.
 */
export const testAgent = async (lookout: Lookout, region: string) => {
  const { token } = (await lookout.cli(['agent-token', 'create', '--region', region])) as { token: string };
  const client = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: lookout.rpcUrl,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    }),
  );
  const instanceId = `browser-test-${region}`;
  const { sessionId } = await client.register({ instanceId, agentVersion: 'test', hostname: 'test' });
  return {
    async report(results: TestResult[]) {
      for (let i = 0; i < results.length; i += 200) {
        const batch = results.slice(i, i + 200).map((r) =>
          create(CheckResultSchema, {
            resultId: `${r.monitorId}:${region}:${r.at.getTime()}`,
            monitorId: r.monitorId,
            monitorVersion: 1n,
            scheduledAtMs: BigInt(r.at.getTime()),
            startedAtMs: BigInt(r.at.getTime()),
            ok: r.ok,
            responseTimeMs: r.responseTimeMs ?? 0,
            statusCode: r.statusCode ?? 0,
            errorKind: r.ok ? '' : (r.errorKind ?? 'http_status'),
            errorMessage: r.error ?? '',
          }),
        );
        const reply = await client.reportResults({ instanceId, sessionId, results: batch });
        if (reply.accepted !== batch.length) throw new Error(`${reply.accepted} of ${batch.length} accepted`);
      }
    },
  };
};

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      // *.localhost is loopback; say so, so nothing asks a resolver.
      '--host-resolver-rules=MAP *.localhost 127.0.0.1',
    ],
  });

/** A new browser context signed in as `who` on `subdomain`, on `path` (found by role and name). */
export const signedInAt = async (
  browser: Browser,
  lookout: Lookout,
  who: { email: string; password: string },
  path = '/monitors',
  subdomain = 'demo',
) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(lookout.url(subdomain, path));
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(lookout.url(subdomain, path));
  return { context, page };
};
