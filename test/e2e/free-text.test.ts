import { silentLogger } from '@lookout/shared';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPingBatcher } from '../../control-plane/src/domain/heartbeats/ping-batcher.js';
import { LINES_PATTERN, TEXT_PATTERN } from '../../control-plane/src/domain/validation.js';
import { allRoutes } from '../../control-plane/src/http/app.js';
import { sharedServices } from '../../control-plane/src/process/wiring.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Free text (descriptions, incident messages, post-mortems) holds no control or bidirectional
 * formatting character (multi-line text keeps tab and line breaks), and the public feeds stay valid
 * XML even when such a character is already in the store.
 */

/** One of each kind refused in every free-text field. */
const REFUSED = [
  '\u0000',
  '\u0007',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u061c',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u2028',
  '\ufffe',
  '\uffff',
];
const code = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** XML 1.0's Char production: what a conforming parser accepts (fast-xml-parser alone does not check it). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const wellFormed = (xml: string) => {
  expect(NOT_XML_CHAR.exec(xml)?.[0], 'a character XML 1.0 does not allow').toBeUndefined();
  expect(XMLValidator.validate(xml)).toBe(true);
};

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let pageId: string;
let incidentId: string;
/** A resolved incident: post-mortems are written on those. */
let resolvedId: string;
let webhookKey: string;

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('free-text');
  const page = await w.api('POST', '/status-pages', {
    json: { name: 'Text', slug: 'text', components: [{ name: 'API', description: 'The public API' }] },
  });
  expect(page.status, JSON.stringify(page.body)).toBe(201);
  pageId = page.body.id;
  const incident = await w.api('POST', `/status-pages/${pageId}/incidents`, {
    json: { title: 'Slow', message: 'Looking into it.' },
  });
  expect(incident.status, JSON.stringify(incident.body)).toBe(201);
  incidentId = incident.body.id;
  const past = await w.api('POST', `/status-pages/${pageId}/incidents`, {
    json: { title: 'Past', message: 'Down.' },
  });
  resolvedId = past.body.id;
  const resolved = await w.api('POST', `/status-pages/${pageId}/incidents/${resolvedId}/updates`, {
    json: { status: 'resolved', message: 'Fixed.' },
  });
  expect(resolved.status, JSON.stringify(resolved.body)).toBe(201);
  const integration = await w.api('POST', '/integrations', { json: { name: 'hook', kind: 'webhook' } });
  webhookKey = integration.body.service_key;
});
afterAll(() => h.close());

/** Each free-text field of the API: where it is sent, the body holding `v` there, and what it is. */
const FIELDS: {
  label: string;
  field: string;
  lines: 'one' | 'many';
  send: (v: string) => ReturnType<Harness['request']>;
}[] = [
  {
    label: 'a new page’s component description',
    field: 'components[0].description',
    lines: 'one',
    send: (v) =>
      w.api('POST', '/status-pages', {
        json: {
          name: 'x',
          slug: `x${Math.random().toString(36).slice(2, 8)}`,
          components: [{ name: 'c', description: v }],
        },
      }),
  },
  {
    label: 'an edited page’s component description',
    field: 'components[0].description',
    lines: 'one',
    send: (v) =>
      w.api('PATCH', `/status-pages/${pageId}`, { json: { components: [{ name: 'c', description: v }] } }),
  },
  {
    label: 'an incident’s first message',
    field: 'message',
    lines: 'many',
    send: (v) => w.api('POST', `/status-pages/${pageId}/incidents`, { json: { title: 't', message: v } }),
  },
  {
    label: 'an incident update’s message',
    field: 'message',
    lines: 'many',
    send: (v) =>
      w.api('POST', `/status-pages/${pageId}/incidents/${incidentId}/updates`, {
        json: { status: 'identified', message: v },
      }),
  },
  {
    label: 'a post-mortem',
    field: 'postmortem',
    lines: 'many',
    send: (v) =>
      w.api('PATCH', `/status-pages/${pageId}/incidents/${resolvedId}`, { json: { postmortem: v } }),
  },
  {
    label: 'an inbound webhook alert’s description',
    field: 'description',
    lines: 'many',
    send: (v) =>
      h.request('POST', '/api/v1/integrations/webhook/events', {
        host: w.host,
        headers: { authorization: `Bearer ${webhookKey}` },
        json: { title: 'Disk full', description: v },
      }),
  },
];

describe('free text on every endpoint', () => {
  it('every description, message and post-mortem field of the route table is held to the rule (in the API document)', () => {
    const routes = allRoutes({
      store: h.store,
      config: h.config,
      clock: h.clock,
      logger: silentLogger(),
      pings: createPingBatcher(async () => {}, { maxBatch: 1, maxQueued: 1 }),
      ...sharedServices(h.config, h.clock, h.store),
      workspaceUrl: (s) => `http://${s}.localhost`,
    });
    type Json = Record<string, unknown>;
    const found: string[] = [];
    const walk = (s: Json, where: string) => {
      for (const v of (s.anyOf ?? s.oneOf ?? s.allOf ?? []) as Json[]) walk(v, where);
      for (const [k, sub] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        const str =
          sub.type === 'string' ? sub : ((sub.anyOf ?? []) as Json[]).find((x) => x.type === 'string');
        if (/^(description|message|postmortem)$/.test(k) && str) {
          found.push(`${where} ${k}`);
          expect([TEXT_PATTERN.source, LINES_PATTERN.source], `${where} ${k}`).toContain(str.pattern);
        }
        walk(sub, `${where} ${k}`);
      }
      if (s.items) walk(s.items as Json, where);
    };
    for (const r of routes)
      if (r.body && r.method !== 'get')
        walk(
          z.toJSONSchema(r.body as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Json,
          `${r.method} ${r.path}`,
        );
    expect(found).toEqual(
      expect.arrayContaining([
        'post /status-pages components description',
        'patch /status-pages/{id} components description',
        'post /status-pages/{id}/incidents message',
        'post /status-pages/{id}/incidents/{incident_id}/updates message',
        'patch /status-pages/{id}/incidents/{incident_id} postmortem',
        'post /integrations/webhook/events description',
      ]),
    );
  });

  it('a control, bidirectional formatting or non-character: 422 naming the field and the character', async () => {
    for (const f of FIELDS) {
      const refused = f.lines === 'one' ? [...REFUSED, '\t', '\n', '\r'] : REFUSED;
      for (const c of refused) {
        const label = `${f.label} ${JSON.stringify(c)}`;
        const r = await f.send(`a${c}b`);
        expect(r.status, `${label} ${JSON.stringify(r.body)}`).toBe(422);
        expect(r.body.error.details, label).toEqual([
          {
            field: f.field,
            message: `${f.lines === 'one' ? 'must be one line without' : 'must not contain'} control or bidirectional formatting characters (found ${code(c)})`,
          },
        ]);
      }
    }
  });

  it('multi-line text keeps its tabs and line breaks; other scripts, markup and emoji are fine', async () => {
    const text = 'Step 1:\trestart\nStep 2:\r\n  نسخ احتياطي <b>ok</b> 👩\u200d💻';
    for (const f of FIELDS.filter((x) => x.lines === 'many')) {
      const r = await f.send(text);
      expect(r.status, `${f.label} ${JSON.stringify(r.body)}`).toBeLessThan(300);
    }
    const incident = await w.api('GET', `/status-pages/${pageId}/incidents/${incidentId}`);
    expect(incident.body.updates.map((u: { message: string }) => u.message)).toContain(text);
    const ok = await FIELDS[1]!.send('Mail, chat & <phone>');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe('feeds', () => {
  it('stay valid XML with control characters already in the store (written before the rule, or directly)', async () => {
    const page = await w.api('POST', '/status-pages', { json: { name: 'Old data', slug: 'old-data' } });
    const created = await w.api('POST', `/status-pages/${page.body.id}/incidents`, {
      json: { title: 'Outage', message: 'First.' },
    });
    const stored = (await h.store.getIncident(w.workspace.id, page.body.id, created.body.id))!;
    const dirty = 'NUL\u0000 BEL\u0007 ESC\u001b[31m FFFF\uffff lone\ud800 end';
    const changed = {
      ...stored,
      title: `Outage\u0000\u001b`,
      updates: stored.updates.map((u) => ({ ...u, message: dirty })),
      version: stored.version + 1,
    };
    expect(await h.store.updateIncident(changed, stored.version)).toBe(true);
    const parser = new XMLParser({ ignoreAttributes: false });
    for (const feed of ['feed.atom', 'feed.rss']) {
      const r = await h.request('GET', `/status/old-data/${feed}`, { host: w.host });
      expect(r.status).toBe(200);
      wellFormed(r.text);
      const doc = parser.parse(r.text);
      const item = feed === 'feed.atom' ? doc.feed.entry : doc.rss.channel.item;
      expect(item.title).toBe('Outage (Investigating)');
      expect(JSON.stringify(item)).toContain('NUL BEL ESC[31m FFFF lone end');
    }
  });
});
