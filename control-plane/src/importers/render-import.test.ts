import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KINDS } from '../config-as-code/kinds/index.js';
import type { ConfigKindKey, ImportOutcome } from './import-outcome.js';
import { envRef, importEnvName } from './import-source.js';
import { renderImport } from './render-import.js';

const now = new Date('2026-12-08T00:00:00Z');
const slackEnv = importEnvName('channel', 'Ops Slack', 'config.url');

const outcome = (): ImportOutcome => ({
  file: {
    channels: [{ name: 'Ops Slack', type: 'slack', config: { url: envRef(slackEnv) } }],
    monitors: [
      { display_name: 'API', monitor_type: 'http', url: 'https://api.example.com/health' },
      { display_name: 'API', monitor_type: 'http', url: `https://api.example.com/v2?q=\${literal}` },
    ],
  },
  unmapped: [
    {
      source: 'endpoint "api"',
      setting: 'conditions: [BODY] == pat(*ok*)',
      reason: 'Lookout has no pattern match on a body',
      item: { kind: 'monitors', index: 1 },
    },
    { source: 'alerting.jetbrainsspace', setting: '', reason: 'Lookout has no JetBrains Space channel' },
  ],
  secrets: [{ env: slackEnv, where: 'channels "Ops Slack" config.url' }],
  counts: { endpoints: 2, 'alerting providers': 2 },
});

describe('renderImport', () => {
  it('writes the header, the summary block, a comment above each item that lost something, and valid data', () => {
    const r = renderImport(outcome(), { source: 'Gatus', now, apiBase: 'https://acme.example.com/api/v1' });
    expect(r.problems).toEqual([]);
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(
      '# yaml-language-server: $schema=https://acme.example.com/api/v1/lookout-config.schema.json',
    );
    expect(r.text).toContain('# Imported from Gatus on 2026-12-08: 2 endpoints, 2 alerting providers.');
    expect(r.text).toContain('# Not imported (2):');
    expect(r.text).toContain(
      '#   - endpoint "api": conditions: [BODY] == pat(*ok*) — Lookout has no pattern match on a body',
    );
    expect(r.text).toContain(
      '#   - alerting.jetbrainsspace: (the whole object) — Lookout has no JetBrains Space channel',
    );
    expect(r.text).toContain('# Set these before plan and apply:');
    expect(r.text).toContain(`#   ${slackEnv}  (channels "Ops Slack" config.url)`);
    // The comment stands right above the second monitor (renamed: names are unique per kind).
    const at = lines.findIndex((l) => l.includes('not imported: conditions'));
    expect(lines[at]).toMatch(
      /# not imported: conditions: \[BODY\] == pat\(\*ok\*\) \(Lookout has no pattern match on a body\)/,
    );
    expect(lines[at + 1]).toMatch(/- display_name: API \(2\)/);
    expect(r.notes).toEqual([expect.stringContaining('monitor "API" is written as "API (2)"')]);
    expect(r.text).toContain('API (2)": names are unique per kind');
    const data = parse(r.text);
    expect(data.version).toBe(1);
    expect(data.channels[0].config.url).toBe(`\${${slackEnv}}`);
    // A literal `${` is escaped as export writes it; only listed secrets stay references.
    expect(data.monitors[1].url).toBe('https://api.example.com/v2?q=$${literal}');
  });

  it('names the schema file beside the file when no workspace address is known', () => {
    const r = renderImport(outcome(), { source: 'Gatus', now });
    expect(r.text.split('\n')[0]).toBe('# yaml-language-server: $schema=lookout-config.schema.json');
  });

  it('reports a file plan would refuse (an importer bug) instead of writing it', () => {
    const bad = outcome();
    (bad.file.monitors as Record<string, unknown>[])[0]!.monitor_type = 'steam';
    bad.file.groups = [{ name: 'G', colour: 'red' } as never];
    bad.unmapped.push({ source: 'x', setting: 'y', reason: 'z', item: { kind: 'monitors', index: 9 } });
    const r = renderImport(bad, { source: 'Gatus', now });
    const paths = r.problems.map((p) => p.path);
    expect(paths).toContain('monitors[0].monitor_type');
    expect(paths).toContain('groups[0].colour');
    expect(paths).toContain('unmapped x');
  });

  it('types every kind of the file', () => {
    const keys: Record<ConfigKindKey, true> = {
      channels: true,
      schedules: true,
      escalation_policies: true,
      groups: true,
      monitors: true,
      heartbeats: true,
      integrations: true,
      maintenance_windows: true,
      status_pages: true,
    };
    expect(Object.keys(keys).sort()).toEqual(KINDS.map((k) => k.key).sort());
  });

  it('makes env names in upper snake', () => {
    expect(importEnvName('channel', 'Ops Slack #2', 'config.url')).toBe(
      'LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_2_CONFIG_URL',
    );
  });
});
