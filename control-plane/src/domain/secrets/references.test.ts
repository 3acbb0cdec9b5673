import { describe, expect, it } from 'vitest';
import { scriptSecrets, secretNames, secretUses, templateSecrets } from './references.js';

describe('secret references', () => {
  it.each([
    ['Bearer {{secrets.PAY_TOKEN}}', ['PAY_TOKEN']],
    ['{{ secrets.A }}:{{secrets.B_2}}/{{secrets.A}}', ['A', 'B_2']],
    ['{{token}} {{secrets.lower}} {{secrets.}} {secrets.X} {{ secret.X }}', []],
    [`{{secrets.TOO_LONG_${'X'.repeat(60)}}}`, []],
  ])('finds {{secrets.NAME}} in %j', (text, names) => {
    expect(templateSecrets(text)).toEqual(names);
  });

  it.each([
    ["await page.fill('#p', secrets.SHOP_PASSWORD)", ['SHOP_PASSWORD']],
    [`secrets['A'] + secrets["B"] + secrets [ 'C' ] + secrets . D`, ['A', 'B', 'C', 'D']],
    ['mysecrets.A + x.secrets.B + secrets.lower + secrets.AB$ + secrets[`C`] + secrets.E', ['E']],
  ])('finds secrets.NAME in the script %j', (script, names) => {
    expect(scriptSecrets(script)).toEqual(names);
  });

  it('names the field of each use in a multistep monitor', () => {
    const uses = secretUses('multistep', {
      steps: [
        { url: 'https://x/{{secrets.PATH}}', body: '{"p":"{{secrets.PASS}}"}' },
        { url: 'https://x', headers: { Accept: 'json', Authorization: 'Bearer {{secrets.PAY_TOKEN}}' } },
        { url: 'https://x/{{secrets.PATH}}' },
      ],
    });
    expect(uses).toEqual([
      { name: 'PATH', field: 'steps[0].url' },
      { name: 'PASS', field: 'steps[0].body' },
      { name: 'PAY_TOKEN', field: 'steps[1].headers.Authorization' },
      { name: 'PATH', field: 'steps[2].url' },
    ]);
    expect(secretNames(uses)).toEqual(['PASS', 'PATH', 'PAY_TOKEN']);
  });

  it('reads a browser script, and nothing of other types or malformed settings', () => {
    expect(secretUses('browser', { script: 'secrets.A; secrets["A"]' })).toEqual([
      { name: 'A', field: 'script' },
    ]);
    expect(secretUses('http', { script: 'secrets.A', steps: [{ url: '{{secrets.A}}' }] })).toEqual([]);
    expect(secretUses('multistep', { steps: 'x' })).toEqual([]);
    expect(secretUses('multistep', { steps: [null, { headers: { A: 5 } }] })).toEqual([]);
  });
});
