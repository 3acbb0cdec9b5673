import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { obj, ROOT, read } from '../support/deploy/common.js';
import { COMPOSE } from '../support/deploy/compose.js';
import { SYSTEMD_ENV, SYSTEMD_UNIT, systemdProblems } from '../support/deploy/systemd.js';
import { haproxyCheck, systemdRoot, systemdSecurity, systemdVerify } from './support/deploy-tools.js';

/**
 * deploy/ checked by the programs that will read it (Debian's haproxy and systemd), not by our own
 * parsers: test/e2e/deploy.test.ts checks that the files agree with the code; these check that the
 * files are what HAProxy and systemd accept. Broken copies show each check can fail.
 */

const HAPROXY_CFG = 'deploy/compose/haproxy.cfg';
const UNIT = 'lookout-agent.service';
const temp: string[] = [];
afterAll(() => {
  for (const p of temp) rmSync(p, { recursive: true, force: true });
});
const tempFile = (name: string, text: string) => {
  const p = join(tmpdir(), `lookout-${process.pid}-${name}`);
  writeFileSync(p, text);
  temp.push(p);
  return p;
};

describe('haproxy -c on deploy/compose/haproxy.cfg', () => {
  // The servers are compose service names, resolved by Docker's DNS at run time (init-addr
  // last,libc,none): outside compose they do not resolve, and HAProxy says so as a warning. Every
  // other warning, and every error, is a problem.
  const services = Object.keys(obj(obj(loadAll(read(COMPOSE))[0]).services));
  const unexpectedWarnings = (output: string) =>
    output
      .split('\n')
      .filter((l) => /\[(WARNING|ALERT)\]/.test(l))
      .filter((l) => {
        const host = /could not resolve address '([^']+)'/.exec(l)?.[1];
        return !(host && services.includes(host));
      });

  it('is valid configuration, with no warning but the compose names it cannot resolve here', () => {
    const r = haproxyCheck(join(ROOT, HAPROXY_CFG));
    expect(r.output).toMatch(/Configuration file is valid/);
    expect(r.status).toBe(0);
    expect(unexpectedWarnings(r.output)).toEqual([]);
  });

  it('fails on a default_backend that does not exist and on tracking a missing server', () => {
    const text = read(HAPROXY_CFG);
    const noBackend = haproxyCheck(
      tempFile(
        'no-backend.cfg',
        text.replace('default_backend control_plane_rpc', 'default_backend control_plane_grpc'),
      ),
    );
    expect(noBackend.status).not.toBe(0);
    expect(noBackend.output).toMatch(/control_plane_grpc/);
    const badTrack = haproxyCheck(
      tempFile(
        'bad-track.cfg',
        text.replace('track control_plane_http/control-plane-2', 'track control_plane_http/control-plane-9'),
      ),
    );
    expect(badTrack.status).not.toBe(0);
    expect(badTrack.output).toMatch(/control-plane-9/);
  });
});

describe('systemd-analyze on deploy/systemd/lookout-agent.service', () => {
  const root = (unitText = read(SYSTEMD_UNIT)) => {
    const r = systemdRoot(UNIT, unitText, read(SYSTEMD_ENV));
    temp.push(r);
    return r;
  };

  it('verify: systemd loads the unit without a single diagnostic', () => {
    const r = systemdVerify(root(), UNIT);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('security: sandboxed the way systemd itself reads it (no root, no new privileges, read-only system)', () => {
    const r = systemdSecurity(root(), UNIT, 25);
    expect(r.status, r.output).toBe(0);
    for (const setting of [
      'UserOrDynamicUser',
      'NoNewPrivileges',
      'ProtectSystem',
      'ProtectHome',
      'PrivateTmp',
      'PrivateDevices',
      'ProtectKernelTunables',
      'RestrictSUIDSGID',
    ])
      expect(r.settings.get(setting), setting).toBe(true);
  });

  it('fails on a misspelt key, a bad signal, a missing program and a weakened sandbox', () => {
    const broken = read(SYSTEMD_UNIT)
      .replace('ProtectClock=yes', 'ProtectClok=yes')
      .replace('KillSignal=SIGTERM', 'KillSignal=SIGTREM');
    const verify = systemdVerify(root(broken), UNIT);
    expect(verify.output).toMatch(/Unknown key 'ProtectClok'/);
    expect(verify.output).toMatch(/SIGTREM/);
    const r = root();
    rmSync(join(r, 'usr/bin/node'));
    expect(systemdVerify(r, UNIT).output).toMatch(/\/usr\/bin\/node is not executable/);
    // systemd reads DynamicUser=yes as implying NoNewPrivileges, ProtectSystem=strict and PrivateTmp:
    // only dropping it with them makes the sandbox weaker.
    const weak = read(SYSTEMD_UNIT).replace(
      /^(DynamicUser|NoNewPrivileges|ProtectSystem|ProtectHome|PrivateTmp|PrivateDevices)=.*$/gm,
      '',
    );
    const security = systemdSecurity(root(weak), UNIT, 25);
    expect(security.status).not.toBe(0);
    expect(security.settings.get('NoNewPrivileges')).toBe(false);
    // Our own checks of the same weakened unit still pass: the sandbox is systemd's call, here.
    expect(systemdProblems(weak, read(SYSTEMD_ENV))).toEqual([]);
  });
});
