// Helpers shared by the benchmarks: pinned child processes, waiting for a line, bulk monitors.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId, systemClock } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { createAgentToken } from '../../control-plane/dist/domain/agent-tokens.js';
import { createWorkspace } from '../../control-plane/dist/domain/workspaces.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';

export const linux = process.platform === 'linux';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `args` pinned to one core (`taskset`) where that exists. */
export const spawnPinned = (core, args, env = {}) => {
  const child = linux
    ? spawn('taskset', ['-c', String(core), ...args], { env: { ...process.env, ...env } })
    : spawn(args[0], args.slice(1), { env: { ...process.env, ...env } });
  child.stderr.on('data', (d) => process.stderr.write(d));
  return child;
};

/** Resolves with the match once the child's stdout matches `re`; rejects if it exits first. */
export const waitLine = (child, re) =>
  new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(re);
      if (m) resolve(m);
    });
    child.on('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
  });

/** Inserts `n` plain-HTTP monitors in eu-west; returns their ids. */
export const insertMonitors = async (store, ws, policyId, n, intervalSeconds, targetPort, from = 0) => {
  const now = new Date();
  const ids = [];
  for (let i = from; i < from + n; i++) {
    const id = newId();
    ids.push(id);
    await store.insertMonitor(
      {
        id,
        workspace_id: ws,
        display_name: `m${i}`,
        monitor_type: 'http',
        url: `http://127.0.0.1:${targetPort}/`,
        http_method: 'GET',
        check_interval_seconds: intervalSeconds,
        timeout_seconds: Math.min(5, intervalSeconds),
        expected_status_code: 200,
        required_keyword: null,
        auth: null,
        port: null,
        request_headers: {},
        request_body: null,
        follow_redirects: false,
        ssl_cert_monitoring: false,
        ssl_cert_expiry_alert_days: 14,
        domain_expiry_alert_days: 30,
        response_time_threshold_ms: null,
        failure_threshold: 3,
        escalation_policy_id: policyId,
        check_locations: ['eu-west'],
        dns_record_type: null,
        dns_expected_values: [],
        dns_resolver: null,
        paused: false,
        created_at: now,
        updated_at: now,
        version: 1,
      },
      { maxMonitors: 1_000_000 },
    );
  }
  return ids;
};

/**
 * A fresh data directory with a store, a `bench` workspace (business plan), its default policy and an
 * eu-west agent token; `env` runs a control plane on the same store.
 */
export const benchStore = async (name, extraEnv = {}) => {
  const dir = mkdtempSync(join(tmpdir(), `lookout-${name}-bench-`));
  const env = {
    LOOKOUT_DATA_DIR: dir,
    LOOKOUT_LOG_LEVEL: 'silent',
    LOOKOUT_HTTP_PORT: '0',
    LOOKOUT_RPC_PORT: '0',
    ...extraEnv,
  };
  const config = loadConfig(env);
  const store = await openStore(config);
  const { workspace } = await createWorkspace(
    store,
    config.plans,
    { subdomain: 'bench', admin_email: 'b@bench.test', plan: 'business' },
    systemClock.now(),
  );
  const policy = await store.getDefaultEscalationPolicy(workspace.id);
  const token = (await createAgentToken(store, config.regions, { region: 'eu-west' }, systemClock.now()))
    .value;
  return { dir, env, config, store, workspace, policy, token };
};
