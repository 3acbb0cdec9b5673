import type { WatchAssignmentsResponse } from '@lookout/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { registerAgent } from '../support/harness-agent.js';
import { waitFor } from '../support/wait.js';

/**
 * A workspace secret reaches a real agent's assignment stream (gRPC, as an agent registers and
 * watches): the multi-step monitor naming it arrives with the value opened, and a new value arrives as
 * the monitor's next version without the monitor being edited.
 */
let h: Harness;
const abort = new AbortController();

beforeAll(async () => {
  h = await startHarness({ assignment_poll_ms: 50 });
}, 60_000);
afterAll(async () => {
  abort.abort();
  await h.close();
});

describe('secrets on the agent wire', () => {
  it('an agent gets the value in the assignment, and the new one when it is replaced', async () => {
    const w = await h.workspace('secrets-wire', 'business');
    const agent = await registerAgent(h, 'eu-west', 'wire-1', ['http', 'multistep']);
    const held = new Map<string, { version: bigint; secrets: Record<string, string> }>();
    void (async () => {
      const stream = agent.client.watchAssignments(
        { instanceId: 'wire-1', sessionId: agent.sessionId, running: [] },
        { signal: abort.signal },
      );
      for await (const msg of stream as AsyncIterable<WatchAssignmentsResponse>) {
        const ev = msg.event;
        const upserts = ev.case === 'sync' ? ev.value.upserts : ev.case === 'upsert' ? [ev.value] : [];
        for (const a of upserts) {
          const s = a.spec?.settings;
          held.set(a.monitorId, {
            version: a.version,
            secrets: s?.case === 'multistep' ? { ...s.value.secrets } : {},
          });
        }
      }
    })().catch(() => {});

    expect(
      (await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: 'wire-value-one-0001' } })).status,
    ).toBe(201);
    const made = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Pay flow',
        monitor_type: 'multistep',
        url: 'https://shop.example.com',
        check_locations: ['eu-west'],
        steps: [
          {
            name: 'Pay',
            method: 'POST',
            url: '{{url}}/pay',
            headers: { Authorization: 'Bearer {{secrets.PAY_TOKEN}}' },
          },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as string;
    const first = await waitFor(
      async () => held.get(id),
      (a) => a !== undefined,
      { what: 'the assignment' },
    );
    expect(first!.secrets).toEqual({ PAY_TOKEN: 'wire-value-one-0001' });

    expect(
      (await w.api('PUT', '/secrets/PAY_TOKEN', { json: { value: 'wire-value-two-0002' } })).status,
    ).toBe(200);
    const second = await waitFor(
      async () => held.get(id),
      (a) => a?.secrets.PAY_TOKEN === 'wire-value-two-0002',
      { what: 'the new value' },
    );
    expect(second!.version).toBe(first!.version + 1n);
  });
});
