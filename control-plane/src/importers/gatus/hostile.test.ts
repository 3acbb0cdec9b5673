// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Gatus's ${VAR} references are the subject
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportInputError } from '../import-source.js';
import { renderImport } from '../render-import.js';
import { source } from './index.js';
import { mapGatus } from './map-gatus.js';

/**
 * A Gatus file made to break the importer: whatever it holds, the file written passes plan's own
 * checks (or the command says why not), and no secret of it is written anywhere, notes included.
 */
describe('Gatus importer on hostile input', () => {
  it('names, headers, patterns and lengths Lookout would refuse are cleaned or left out with a reason', () => {
    const outcome = mapGatus({
      endpoints: [
        { name: 'evil\u202e\u0000name\nsecond line', group: '\u2066grp\u0007', url: 'https://a.example.com' },
        { name: '\u200b', url: 'https://b.example.com' },
        { name: 'x'.repeat(500), url: 'https://c.example.com' },
        {
          name: 'headers',
          url: 'https://d.example.com',
          headers: {
            'Bad Header': 'v',
            'X-Long': 'v'.repeat(5000),
            ...Object.fromEntries([...Array(60)].map((_, i) => [`X-H${i}`, 'v'])),
          },
        },
        {
          name: 'regex',
          url: 'https://e.example.com',
          conditions: [`[BODY] == pat(${'a?'.repeat(300)})`, `[BODY].x == ${'y'.repeat(2000)}`],
        },
        { name: 'long url', url: `https://f.example.com/${'p'.repeat(3000)}` },
        { name: 'ssh', url: 'ssh://root:hunter2@h.example.com:22' },
        { name: 'dollar ${HOME} $${literal}', url: 'https://g.example.com', group: '$TEAM' },
        { name: 'num', url: 12345 },
      ],
      'external-endpoints': [
        { name: '!!!', token: 't' },
        { name: '???', token: 't' },
      ],
    });
    const r = renderImport(outcome, { source: 'Gatus', now: new Date('2026-12-08T00:00:00Z') });
    expect(r.problems).toEqual([]);
    const names = (outcome.file.monitors ?? []).map((m) => m.display_name);
    expect(names).toContain('evil name second line');
    expect(names).toContain('unnamed');
    expect(names.every((n) => String(n).length <= 200)).toBe(true);
    expect(outcome.file.groups).toEqual([{ name: 'grp' }, { name: '$TEAM' }]);
    expect(r.text).not.toContain('hunter2');
    expect(r.text).toContain('ssh://…@h.example.com:22');
    const settings = outcome.unmapped.map((u) => `${u.source} ${u.setting}`);
    expect(settings).toEqual(
      expect.arrayContaining([
        'endpoint "headers" headers.Bad Header',
        'endpoint "headers" headers.X-Long',
        'endpoint "headers" headers.X-H50',
        'endpoint "dollar ${HOME} $${literal}" (group $TEAM) name',
        'endpoint "dollar ${HOME} $${literal}" (group $TEAM) group',
      ]),
    );
    const regex = outcome.unmapped
      .filter((u) => u.source === 'endpoint "regex"' && u.setting !== 'conditions')
      .map((u) => u.reason);
    expect(regex).toEqual([
      expect.stringMatching(/^Lookout would refuse it: /),
      expect.stringMatching(/^Lookout would refuse it: /),
    ]);
    expect(outcome.unmapped.find((u) => u.source === 'endpoint "long url"')?.reason).toContain('2048');
    // What the source names reaches the file and the terminal as one line each, without escapes.
    for (const ch of ['\u0000', '\u0007', '\u202e', '\u2066']) expect(r.text).not.toContain(ch);
    expect(r.text).toContain('#   - endpoint "evil  name second line" (group  grp ): conditions');
    // Slugs unique.
    expect(outcome.file.heartbeats!.map((h) => h.slug)).toEqual(['heartbeat', 'heartbeat-2']);
  });
});

describe('Gatus providers Lookout would refuse', () => {
  it('a provider whose plain values a channel refuses is left out with the reason, its secrets unlisted', () => {
    const o = mapGatus({
      alerting: {
        telegram: { token: '1:abc', id: 'not a chat' },
        email: { to: 'not-an-address' },
        ntfy: { topic: 'has spaces in it', token: 'tk' },
      },
      endpoints: [
        {
          name: 'a',
          url: 'https://a.example.com',
          conditions: ['[STATUS] == 200'],
          alerts: [{ type: 'telegram' }],
        },
      ],
    });
    expect(o.file.channels).toBeUndefined();
    expect(o.secrets).toEqual([]);
    expect(o.unmapped.map((u) => `${u.source}: ${u.reason.split(':')[0]}`)).toEqual([
      'alerting.telegram: Lookout’s Telegram channel would refuse it',
      'alerting.email: Lookout’s Email channel would refuse it',
      'alerting.ntfy: Lookout’s ntfy channel would refuse it',
      'endpoint "a": alerting.telegram is not imported (see the list at the top)',
    ]);
    expect(renderImport(o, { source: 'Gatus', now: new Date() }).problems).toEqual([]);
  });
});

describe('Gatus configuration folders', () => {
  it('merges every YAML file below the folder as Gatus does, and refuses a value set twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatus-dir-'));
    try {
      mkdirSync(join(dir, 'teams'));
      writeFileSync(
        join(dir, 'alerting.yaml'),
        'alerting:\n  slack:\n    webhook-url: "https://hooks.slack.com/services/a"\n',
      );
      writeFileSync(
        join(dir, 'teams', 'a.yml'),
        'endpoints:\n  - name: a\n    url: "https://a.example.com"\n',
      );
      writeFileSync(join(dir, 'teams', 'b.yaml'), 'endpoints:\n  - name: b\n    url: "tcp://b:1"\n');
      writeFileSync(join(dir, 'notes.txt'), 'not read');
      const o = await source.read({ file: dir, env: {} });
      expect(o.file.monitors!.map((m) => m.display_name)).toEqual(['a', 'b']);
      expect(o.file.channels!.map((c) => c.name)).toEqual(['Slack']);
      writeFileSync(
        join(dir, 'teams', 'c.yaml'),
        'alerting:\n  slack:\n    webhook-url: "https://hooks.slack.com/services/b"\n',
      );
      await expect(source.read({ file: dir, env: {} })).rejects.toThrow(
        'alerting.slack.webhook-url is set in two files',
      );
      await expect(source.read({ file: join(dir, 'absent'), env: {} })).rejects.toThrow(ImportInputError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
