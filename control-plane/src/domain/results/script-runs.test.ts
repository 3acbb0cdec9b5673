import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { CheckResultSchema, ScriptReportSchema, StepReportSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { resultFromWire } from '../../rpc/wire.js';
import type { CheckResultRecord } from '../types.js';
import {
  boundScript,
  MAX_SCREENSHOT_BYTES,
  screenshotType,
  scriptRunCuts,
  scriptRunsOf,
} from './script-runs.js';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const image = (magic: number[], size = 64) => {
  const b = new Uint8Array(size);
  b.set(magic);
  return b;
};

const report = (over: MessageInitShape<typeof ScriptReportSchema> = {}) =>
  create(ScriptReportSchema, {
    steps: [
      create(StepReportSchema, {
        name: 'Sign in',
        ok: false,
        durationMs: 12,
        error: 'boom',
        statusCode: 502,
      }),
    ],
    failedStep: 1,
    ...over,
  });

describe('a scripted run’s report, as the control plane keeps it', () => {
  it('keeps a screenshot only when its bytes are the PNG or JPEG its type names, and small enough', () => {
    expect(screenshotType('image/png', image(PNG))).toBe('image/png');
    expect(screenshotType('image/jpeg', image(JPEG))).toBe('image/jpeg');
    // A type that lies about the bytes, an unknown type, HTML, nothing at all, too large.
    expect(screenshotType('image/png', image(JPEG))).toBeNull();
    expect(screenshotType('image/jpeg', image(PNG))).toBeNull();
    expect(screenshotType('image/gif', image([0x47, 0x49, 0x46, 0x38]))).toBeNull();
    expect(screenshotType('image/svg+xml', new TextEncoder().encode('<svg onload="alert(1)"/>'))).toBeNull();
    expect(screenshotType('text/html', new TextEncoder().encode('<script>alert(1)</script>'))).toBeNull();
    expect(screenshotType('image/png', new Uint8Array(0))).toBeNull();
    expect(screenshotType('image/png', Uint8Array.from(PNG))).toBeNull();
    expect(screenshotType('image/png', image(PNG, MAX_SCREENSHOT_BYTES))).toBe('image/png');
    expect(screenshotType('image/png', image(PNG, MAX_SCREENSHOT_BYTES + 1))).toBeNull();
  });

  it('bounds what an agent sent: 50 steps, names 100 and errors 2,000 characters, 20 lines of 500', () => {
    const s = boundScript(
      report({
        steps: Array.from({ length: 70 }, (_, i) =>
          create(StepReportSchema, { name: `${i}`.padEnd(400, 'n'), ok: i !== 60, error: 'e'.repeat(9000) }),
        ),
        failedStep: 61,
        errorLine: 0,
        consoleErrors: Array.from({ length: 30 }, () => 'c'.repeat(800)),
        failedRequests: ['GET /x 500'],
        screenshot: image(JPEG, MAX_SCREENSHOT_BYTES + 10),
        screenshotType: 'image/jpeg',
      }),
    );
    expect(s.steps).toHaveLength(50);
    expect(s.steps[0]!.name).toHaveLength(100);
    // A step that passed has no error, whatever the agent said.
    expect(s.steps[0]!.error).toBeNull();
    expect([s.console_errors.length, s.console_errors[0]!.length]).toEqual([20, 500]);
    expect(s.failed_requests).toEqual(['GET /x 500']);
    // The failed step is past the steps kept: none named rather than a wrong one.
    expect(s.failed_step).toBeNull();
    expect(s.error_line).toBeNull();
    // Too large: dropped, the run kept.
    expect(s.screenshot).toBeNull();
    const failing = boundScript(
      report({ steps: [create(StepReportSchema, { name: 'Pay', ok: false, error: 'x'.repeat(3000) })] }),
    );
    expect(failing.steps[0]!.error).toHaveLength(2000);
    expect(failing.failed_step).toBe(1);
  });

  it('web vitals only when measured; zero or unmeasurable values as null; a kept screenshot is a copy', () => {
    const bytes = image(PNG);
    const s = boundScript(
      report({
        webVitals: {
          $typeName: 'lookout.agent.v1.WebVitals',
          measured: true,
          ttfbMs: 30,
          lcpMs: 0,
          cls: Number.NaN,
        },
        screenshot: bytes,
        screenshotType: 'image/png',
      }),
    );
    expect(s.web_vitals).toEqual({ ttfb_ms: 30, lcp_ms: null, cls: null });
    expect(s.screenshot?.content_type).toBe('image/png');
    expect(s.screenshot?.data).toEqual(bytes);
    expect(s.screenshot?.data.buffer).not.toBe(bytes.buffer);
    const none = boundScript(
      report({
        webVitals: { measured: false, ttfbMs: 9, lcpMs: 9, cls: 0 },
      }),
    );
    expect(none.web_vitals).toBeNull();
  });

  it('a decoded result carries its report (or null), and a run and screenshot come of it', () => {
    const wire = create(CheckResultSchema, {
      monitorId: 'm1',
      scheduledAtMs: 1_800_000_000_000n,
      startedAtMs: 1_800_000_000_001n,
      script: report({ screenshot: image(PNG), screenshotType: 'image/png' }),
    });
    const incoming = resultFromWire(wire);
    expect(incoming.script?.steps[0]).toEqual({
      name: 'Sign in',
      ok: false,
      duration_ms: 12,
      error: 'boom',
      status_code: 502,
    });
    expect(resultFromWire(create(CheckResultSchema, { monitorId: 'm1' })).script).toBeNull();
    const received = new Date(1_800_000_100_000);
    const record = {
      id: 'm1:eu:1800000000000',
      workspace_id: 'w1',
      monitor_id: 'm1',
      location: 'eu',
      started_at: incoming.started_at,
      received_at: received,
      ok: false,
    } as CheckResultRecord;
    const { runs, screenshots } = scriptRunsOf([{ result: record, script: incoming.script! }]);
    expect(runs[0]).toMatchObject({
      result_id: record.id,
      failed_step: 1,
      screenshot: { content_type: 'image/png', size: 64 },
    });
    expect(screenshots[0]).toMatchObject({
      result_id: record.id,
      taken_at: received,
      content_type: 'image/png',
    });
  });

  it('retention cuts: runs as the results, screenshots 7 days', () => {
    const now = new Date('2026-12-07T12:00:00Z');
    expect(scriptRunCuts(now, 30)).toEqual({
      before: new Date('2026-11-07T12:00:00Z'),
      screenshotsBefore: new Date('2026-11-30T12:00:00Z'),
    });
  });
});
