import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Assertion } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeWithDeadline } from '../../agent/src/deadline.js';
import type { ProbeSpec } from '../../agent/src/probe-port.js';
import { findFping } from '../../agent/src/probers/fping.js';
import { createProbers } from '../../agent/src/probers/index.js';
import { createPingProber } from '../../agent/src/probers/ping-prober.js';
import { realTimers } from '../../agent/src/scheduler.js';
import { AGENT, exited, startProcess } from '../support/processes.js';
import { findBinary } from './support/binaries.js';
import { createTestNetns, netnsSkipReason, type TestNetns } from './support/netns.js';

/**
 * ping checks through Debian's fping (`apt-get install fping`), against 127.0.0.1 and ::1 and, as
 * root, an address inside a network namespace the test makes: answering, then ignoring echoes.
 */
const FPING = findBinary(['fping'], 'apt-get install -y fping');

const spec = (
  url: string,
  over: { packet_count?: number; timeout_ms?: number; assertions?: Assertion[] } = {},
) =>
  ({
    monitor_id: `m-${url}`,
    monitor_type: 'ping',
    url,
    timeout_ms: over.timeout_ms ?? 2000,
    settings: { packet_count: over.packet_count ?? 3, assertions: over.assertions ?? [] },
  }) satisfies ProbeSpec<'ping'>;

const prober = createPingProber({ fping: FPING });
const run = (s: ProbeSpec<'ping'>, p = prober) => probeWithDeadline(p, s, realTimers);

describe('ping prober on loopback', () => {
  it('three echoes to 127.0.0.1 and ::1 are answered: up, no loss, the mean round trip', async () => {
    for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost']) {
      const o = await run(spec(host));
      expect(o, host).toMatchObject({ ok: true, error: null, packet_loss: 0 });
      expect(o.response_time_ms).toBeGreaterThan(0);
      expect(o.response_time_ms).toBeLessThan(1000);
    }
  });

  it('checks due together share one fping (each address once) and each gets its own answer', async () => {
    // fping behind a script that notes each start and its arguments.
    const dir = mkdtempSync(join(tmpdir(), 'lookout-fping-log-'));
    try {
      const log = join(dir, 'starts');
      const logged = join(dir, 'fping');
      writeFileSync(logged, `#!/bin/sh\necho "$*" >> ${log}\nexec ${FPING} "$@"\n`);
      chmodSync(logged, 0o755);
      const starts = () => readFileSync(log, 'utf8').trim().split('\n');
      const hosts = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '::1', '127.0.0.1'];
      const shared = createPingProber({ fping: logged });
      const outcomes = await Promise.all(hosts.map((h) => run(spec(h, { packet_count: 2 }), shared)));
      for (const o of outcomes) expect(o).toMatchObject({ ok: true, packet_loss: 0 });
      expect(starts()).toHaveLength(1);
      expect(starts()[0]).toMatch(/ -- 127\.0\.0\.1 127\.0\.0\.2 127\.0\.0\.3 ::1$/);
      // At most two addresses a process: a full group starts at once, the rest after (three more).
      const small = createPingProber({ fping: logged, maxAddresses: 2 });
      await Promise.all(hosts.map((h) => run(spec(h, { packet_count: 2 }), small)));
      expect(starts()).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('assertions on packet_loss and response_time: a failing one is named with the actual value', async () => {
    const pass = await run(
      spec('127.0.0.1', {
        assertions: [
          { source: 'packet_loss', property: '', comparison: 'equals', target: '0' },
          { source: 'response_time', property: '', comparison: 'less_than', target: '1000' },
        ],
      }),
    );
    expect(pass).toMatchObject({ ok: true, error: null });
    const fail = await run(
      spec('127.0.0.1', {
        assertions: [{ source: 'response_time', property: '', comparison: 'greater_than', target: '5000' }],
      }),
    );
    expect(fail.ok).toBe(false);
    expect(fail.error?.kind).toBe('assertion_failed');
    expect(fail.error?.message).toMatch(/^response_time was [\d.]+, expected greater_than "5000"$/);
  });

  it('a name that does not resolve fails as a DNS failure; fping never sees it', async () => {
    const o = await run(spec('no-such-host.invalid'));
    expect(o).toMatchObject({ ok: false, error: { kind: 'dns_failure' } });
    const option = await run(spec('-f/etc/passwd'));
    expect(option.ok).toBe(false);
    expect(option.error?.kind).toBe('dns_failure');
  });

  it('the SSRF guard refuses loopback, private and metadata addresses, by literal and by name', async () => {
    const guarded = createPingProber({ fping: FPING, blockPrivate: true });
    for (const host of [
      '127.0.0.1',
      '::1',
      '169.254.169.254',
      '10.0.0.1',
      '[::ffff:127.0.0.1]',
      'localhost',
    ]) {
      const o = await run(spec(host), guarded);
      expect(o, host).toMatchObject({ ok: false, error: { kind: 'blocked_target' } });
      expect(o.error?.message).toMatch(/is not an allowed destination/);
    }
  });

  it('a check whose deadline passes first times out; fping stops', async () => {
    const slow = createPingProber({ fping: FPING, gatherMs: 300 });
    const o = await run(spec('127.0.0.1', { timeout_ms: 100 }), slow);
    expect(o).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });
});

describe('this host declares ping only when fping runs', () => {
  it('declared with a working fping, not without one', async () => {
    const found = await findFping(FPING);
    expect(found.program).toBe(FPING);
    expect(createProbers({ fping: found.program }).types).toContain('ping');
    const absent = await findFping('/nonexistent/fping');
    expect(absent.program).toBeNull();
    expect(createProbers({ fping: absent.program }).types).not.toContain('ping');
    const none = await createProbers({ fping: null }).run(spec('127.0.0.1'), {
      aborted: false,
    } as never);
    expect(none).toMatchObject({ ok: false, error: { kind: 'unsupported' } });
  });
});

describe('the agent process (agent/dist/main.js)', () => {
  it('says at start whether it offers ping checks: with fping it does, without or with off it does not', async () => {
    const cases: [string, RegExp][] = [
      [FPING, /"fping":"[^"]*fping".*"msg":"ping checks: fping runs"/],
      [
        '/nonexistent/fping',
        /"why":"fping could not run: spawn \/nonexistent\/fping ENOENT".*"msg":"no ping checks on this agent: fping does not run"/,
      ],
      ['off', /"why":"LOOKOUT_AGENT_FPING=off".*"msg":"no ping checks on this agent/],
    ];
    for (const [fping, said] of cases) {
      const agent = await startProcess(
        AGENT,
        {
          LOOKOUT_AGENT_TOKEN: 'lat.not-checked-by-anyone-here',
          LOOKOUT_AGENT_CONTROL_PLANE_URL: 'http://127.0.0.1:9',
          LOOKOUT_AGENT_FPING: fping,
          LOOKOUT_AGENT_RDAP_BOOTSTRAP_URL: 'off',
        },
        /ping checks/,
      );
      try {
        expect(agent.output(), fping).toMatch(said);
      } finally {
        agent.child.kill('SIGKILL');
        await exited(agent.child);
      }
    }
  });
});

const NETNS_SKIP = netnsSkipReason();
describe.skipIf(NETNS_SKIP !== null)(
  `in a network namespace the test makes${NETNS_SKIP ? ` (skipped: ${NETNS_SKIP})` : ''}`,
  () => {
    let ns: TestNetns;
    let dir: string;
    beforeAll(() => {
      ns = createTestNetns();
      dir = mkdtempSync(join(tmpdir(), 'lookout-fping-'));
      chmodSync(dir, 0o755);
    });
    afterAll(() => {
      ns?.remove();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('an address that answers is up; one that ignores echoes is down, 100% loss, naming the cause', async () => {
      expect(await run(spec(ns.inside))).toMatchObject({ ok: true, packet_loss: 0 });
      ns.exec(['sysctl', '-q', '-w', 'net.ipv4.icmp_echo_ignore_all=1']);
      try {
        const o = await run(spec(ns.inside, { timeout_ms: 1000 }));
        expect(o).toMatchObject({
          ok: false,
          packet_loss: 100,
          error: { kind: 'unreachable', message: 'no reply to 3 echo requests (100% packet loss)' },
        });
      } finally {
        ns.exec(['sysctl', '-q', '-w', 'net.ipv4.icmp_echo_ignore_all=0']);
      }
    });

    it('an address of the namespace no one holds: down, naming the ICMP error the network sent', async () => {
      // The neighbour lookup gives up after about 3 s: four echoes a second apart outlast it.
      const o = await run(spec(ns.unheld, { packet_count: 4, timeout_ms: 6000 }));
      const gateway = ns.inside.replace(/\.2$/, '.1');
      expect(o).toMatchObject({
        ok: false,
        packet_loss: 100,
        error: { kind: 'unreachable', message: `ICMP Host Unreachable from ${gateway} (100% packet loss)` },
      });
    });

    it("unprivileged, fping runs with the systemd unit's one capability (CAP_NET_RAW, ambient) and not without it", async () => {
      // A copy of fping has no file capability. It runs as nobody with no new privileges, in the
      // namespace where net.ipv4.ping_group_range admits no group: first with no capability, then
      // with what deploy/systemd/lookout-agent.service grants (AmbientCapabilities=CAP_NET_RAW,
      // CapabilityBoundingSet=CAP_NET_RAW).
      const bare = join(dir, 'fping');
      copyFileSync(FPING, bare);
      chmodSync(bare, 0o755);
      const wrapper = (name: string, caps: string[]) => {
        const path = join(dir, name);
        const setpriv = ['--reuid=65534', '--regid=65534', '--clear-groups', ...caps, '--no-new-privs'].join(
          ' ',
        );
        writeFileSync(path, `#!/bin/sh\nexec ip netns exec ${ns.name} setpriv ${setpriv} ${bare} "$@"\n`);
        chmodSync(path, 0o755);
        return path;
      };
      ns.exec(['sysctl', '-q', '-w', 'net.ipv4.ping_group_range=1 0']);
      const none = wrapper('fping-no-caps', ['--inh-caps=-all', '--bounding-set=-all']);
      const refused = await findFping(none);
      expect(refused.program).toBeNull();
      expect(refused.program === null && refused.why).toMatch(/can't create socket/);
      const unit = wrapper('fping-unit-caps', [
        '--inh-caps=-all,+net_raw',
        '--ambient-caps=-all,+net_raw',
        '--bounding-set=-all,+net_raw',
      ]);
      expect((await findFping(unit)).program).toBe(unit);
      const o = await run(spec('127.0.0.1'), createPingProber({ fping: unit }));
      expect(o).toMatchObject({ ok: true, packet_loss: 0 });
    });
  },
);
