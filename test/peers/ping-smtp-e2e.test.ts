import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@lookout/shared';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { makeCa } from '../support/certs.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, runCli, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { findBinary } from './support/binaries.js';
import { createTestNetns, netnsSkipReason, type TestNetns } from './support/netns.js';

/**
 * ping and smtp monitors end to end: created through the API, checked by a real agent process
 * (agent/dist/main.js, fping found on PATH), down with an alert naming the cause, then recovered.
 * ping's target is an address in a network namespace the test makes (root); it stops answering
 * when the namespace ignores echoes. smtp's target is smtp-server on loopback, stopped and started.
 */
findBinary(['fping'], 'apt-get install -y fping');
const NETNS_SKIP = netnsSkipReason();

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let agent: ChildProcess | undefined;
let agentLog: () => string;
const ca = makeCa();
const leaf = ca.leaf(['localhost', '127.0.0.1'], 30);
const caDir = mkdtempSync(join(tmpdir(), 'lookout-ca-'));

beforeAll(async () => {
  h = await startHarness(
    {
      plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } },
      assignment_poll_ms: 100,
    },
    // The agent reads certificates at the real time: so does the control plane here.
    { clock: systemClock },
  );
  w = await h.workspace('checks', 'e2e');
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  // The agent trusts the test's CA as a host trusts its own (NODE_EXTRA_CA_CERTS).
  const caFile = join(caDir, 'ca.pem');
  writeFileSync(caFile, ca.pem.cert);
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region: 'eu-west',
    instance: 'eu-west-1',
    env: { NODE_EXTRA_CA_CERTS: caFile },
  });
  agent = p.child;
  agentLog = p.output;
});
afterAll(async () => {
  if (agent) {
    agent.kill('SIGKILL');
    await exited(agent);
  }
  await h?.close();
  rmSync(caDir, { recursive: true, force: true });
});

interface Result {
  ok: boolean;
  error_message: string | null;
  tls_valid_to: string | null;
}
const latest = async (id: string) =>
  ((await w.api('GET', `/monitors/${id}/results?limit=1`)).body.data as Result[])[0];
const statusOf = async (id: string) => (await w.api('GET', `/monitors/${id}`)).body.status as string;
const openAlert = async (id: string) =>
  ((await w.api('GET', `/alerts?source_id=${id}`)).body.data as Record<string, unknown>[]).find(
    (a) => a.status === 'open',
  );

const create = async (json: Record<string, unknown>) => {
  const r = await w.api('POST', '/monitors/create', {
    json: { check_interval_seconds: 1, failure_threshold: 1, check_locations: ['eu-west'], ...json },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
};

/** Up, then down with an alert and a result naming `cause`, then up again once `heal` ran. */
const downAndBack = async (
  id: string,
  breakIt: () => Promise<void>,
  heal: () => Promise<void>,
  cause: RegExp,
) => {
  await waitFor(
    () => statusOf(id),
    (s) => s === 'up',
    { what: 'the monitor up', timeoutMs: 30_000 },
  );
  await breakIt();
  await waitFor(
    () => statusOf(id),
    (s) => s === 'down',
    { what: 'the monitor down', timeoutMs: 30_000 },
  );
  expect((await latest(id))?.error_message).toMatch(cause);
  const alert = await waitFor(
    () => openAlert(id),
    (a) => a !== undefined,
    { what: 'an open alert' },
  );
  // The alert names the cause, as its messages will.
  expect(String(alert?.description)).toContain(`Last error: ${(await latest(id))?.error_message}`);
  await heal();
  await waitFor(
    () => statusOf(id),
    (s) => s === 'up',
    { what: 'the monitor up again', timeoutMs: 30_000 },
  );
};

describe('ping and smtp monitors, end to end', () => {
  it('the agent process found fping and offers ping checks: the agent list says so', async () => {
    expect(agentLog()).toMatch(/"msg":"ping checks: fping runs"/);
    const env = { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' };
    const listed = JSON.parse((await runCli(['agent', 'list', '--json'], env)).stdout).data as {
      instance_id: string;
      check_types: string[];
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]!.check_types).toEqual(expect.arrayContaining(['ping', 'smtp']));
  });

  it('smtp: STARTTLS server up, stopped (connection refused), started again', async () => {
    let server: SMTPServer | null = null;
    const start = async (port: number) => {
      server = new SMTPServer({ authOptional: true, logger: false, closeTimeout: 100, ...leaf });
      server.on('error', () => {});
      await new Promise<void>((r) => server!.listen(port, '127.0.0.1', () => r()));
      return ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo)
        .port;
    };
    const stop = () => new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    const port = await start(0);
    try {
      const id = await create({
        display_name: 'Mail',
        monitor_type: 'smtp',
        url: 'localhost',
        port,
        smtp_security: 'starttls',
        ssl_cert_monitoring: true,
      });
      // The certificate read after STARTTLS is on the result, as an https check's is.
      const checked = await waitFor(
        () => latest(id),
        (r) => r?.ok === true,
        { what: 'a passing smtp result', timeoutMs: 30_000 },
      );
      expect(Date.parse(checked!.tls_valid_to!) - Date.now()).toBeGreaterThan(28 * 86_400_000);
      await downAndBack(id, stop, async () => void (await start(port)), /ECONNREFUSED/);
    } finally {
      await stop();
    }
  });

  it('smtp with implicit TLS: a certificate near its end raises the expiry alert, as for https', async () => {
    const soon = ca.leaf(['localhost', '127.0.0.1'], 5);
    const server = new SMTPServer({
      authOptional: true,
      logger: false,
      closeTimeout: 100,
      secure: true,
      ...soon,
    });
    server.on('error', () => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (
        (server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo
      ).port;
      const id = await create({
        display_name: 'Submission',
        monitor_type: 'smtp',
        url: 'localhost',
        port,
        smtp_security: 'tls',
        ssl_cert_monitoring: true,
        ssl_cert_expiry_alert_days: 14,
      });
      const alert = await waitFor(
        () => openAlert(id),
        (a) => a !== undefined,
        { what: 'the certificate expiry alert', timeoutMs: 30_000 },
      );
      expect(alert).toMatchObject({ cause: 'tls_expiry' });
      expect(String(alert!.title)).toMatch(/^TLS certificate of Submission expires in [45] days$/);
      expect(await statusOf(id)).toBe('up');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  describe.skipIf(NETNS_SKIP !== null)(`ping${NETNS_SKIP ? ` (skipped: ${NETNS_SKIP})` : ''}`, () => {
    let ns: TestNetns;
    beforeAll(() => {
      ns = createTestNetns();
    });
    afterAll(() => ns?.remove());

    it('an address in the namespace: up, down when it ignores echoes (100% loss), up again', async () => {
      const id = await create({
        display_name: 'Router',
        monitor_type: 'ping',
        url: ns.inside,
        packet_count: 2,
        timeout_seconds: 1,
      });
      const echoes = (ignore: 0 | 1) => async () =>
        void ns.exec(['sysctl', '-q', '-w', `net.ipv4.icmp_echo_ignore_all=${ignore}`]);
      await downAndBack(id, echoes(1), echoes(0), /^no reply to 2 echo requests \(100% packet loss\)$/);
    });
  });
});
