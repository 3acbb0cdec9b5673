import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { type CheckResult, CheckResultSchema, TimingsSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { filledMessage } from '../../../test/support/filled-message.js';
import { decodeResult } from './result-decoder.js';

const both = (bytes: Uint8Array) => [decodeResult(bytes), fromBinary(CheckResultSchema, bytes)];

describe('decodeResult', () => {
  it('reads every field of CheckResult as protobuf-es does', () => {
    // Built by reflection: a field added to CheckResult (or its messages) fails here until decoded.
    const all = filledMessage(CheckResultSchema) as unknown as CheckResult;
    const [mine, theirs] = both(toBinary(CheckResultSchema, all));
    expect(mine).toEqual(theirs);
    expect(mine).toEqual(all);
  });

  it('reads defaults, edges and empty messages as protobuf-es does', () => {
    const cases: CheckResult[] = [
      create(CheckResultSchema),
      create(CheckResultSchema, {
        resultId: 'm1:eu-west:1800000000000',
        monitorId: 'm1',
        monitorVersion: 2n ** 63n + 5n,
        scheduledAtMs: -5n,
        ok: true,
        responseTimeMs: 2 ** 32 - 1,
        timings: create(TimingsSchema),
        tls: { validToMs: -86_400_000n, subject: 'ünïcødé', issuer: '' },
        dnsRecords: ['', '192.0.2.1', 'x'.repeat(300)],
        runNowRequestId: 'req-1',
      }),
    ];
    for (const c of cases) {
      const [mine, theirs] = both(toBinary(CheckResultSchema, c));
      expect(mine).toEqual(theirs);
    }
  });

  it('skips fields it does not know (a newer agent), and merges a message field given twice', () => {
    const w = new BinaryWriter();
    w.tag(2, WireType.LengthDelimited).string('m1');
    w.tag(99, WireType.LengthDelimited).string('from the future');
    w.tag(98, WireType.Varint).uint64(12345n);
    w.tag(11, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint32(3).join();
    w.tag(11, WireType.LengthDelimited).fork().tag(5, WireType.Varint).uint32(9).join();
    const bytes = w.finish();
    const mine = decodeResult(bytes);
    expect(mine.monitorId).toBe('m1');
    expect(mine.timings).toMatchObject({ dnsMs: 3, totalMs: 9 });
    // protobuf-es keeps unknown fields ($unknown); the control plane has no use for them.
    const { $unknown: _, ...theirs } = fromBinary(CheckResultSchema, bytes) as CheckResult & {
      $unknown?: unknown;
    };
    expect(mine).toEqual(theirs);
  });

  it('refuses malformed bytes: a known field of the wrong wire type, a field past the end', () => {
    const wrongType = new BinaryWriter().tag(2, WireType.Varint).uint32(7).finish();
    expect(() => decodeResult(wrongType)).toThrow('field 2: wire type 0, expected 2');
    const good = toBinary(CheckResultSchema, create(CheckResultSchema, { resultId: 'r', monitorId: 'm1' }));
    expect(() => decodeResult(good.subarray(0, good.length - 1))).toThrow();
    const nestedPastEnd = new BinaryWriter()
      .tag(11, WireType.LengthDelimited)
      .uint32(2)
      .tag(1, WireType.Varint)
      .uint32(300)
      .finish();
    expect(() => decodeResult(nestedPastEnd)).toThrow('past the end');
  });
});
