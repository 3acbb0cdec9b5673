import { create, type DescMessage, fromBinary, ScalarType, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { type CheckResult, CheckResultSchema, TimingsSchema } from '@lookout/proto';
import { describe, expect, it } from 'vitest';
import { decodeResult } from './result-decoder.js';

/** A value for a scalar field that is not its default, varied by `seed`. */
const scalar = (type: ScalarType, seed: number): unknown => {
  switch (type) {
    case ScalarType.STRING:
      return `v${seed}-é✓`;
    case ScalarType.BOOL:
      return true;
    case ScalarType.UINT32:
      return seed * 1000 + 7;
    case ScalarType.INT64:
    case ScalarType.UINT64:
      return BigInt(seed) * 10n ** 12n + 3n;
    default:
      throw new Error(`the decoder reads no ${ScalarType[type]} field: teach it this one`);
  }
};
/** The message with every field of its schema set (lists to two values), found by reflection. */
const filled = (schema: DescMessage, seed: number): Record<string, unknown> => {
  const m = create(schema) as unknown as Record<string, unknown>;
  for (const f of schema.fields) {
    const s = seed * 31 + f.number;
    if (f.fieldKind === 'scalar') m[f.localName] = scalar(f.scalar, s);
    else if (f.fieldKind === 'message') m[f.localName] = filled(f.message, s);
    else if (f.fieldKind === 'list' && f.listKind === 'scalar') {
      m[f.localName] = [scalar(f.scalar, s), scalar(f.scalar, s + 1)];
    } else throw new Error(`the decoder reads no field like ${f.name}: teach it this one`);
  }
  return m;
};
const both = (bytes: Uint8Array) => [decodeResult(bytes), fromBinary(CheckResultSchema, bytes)];

describe('decodeResult', () => {
  it('reads every field of CheckResult as protobuf-es does', () => {
    // Built by reflection: a field added to CheckResult (or its messages) fails here until decoded.
    const all = filled(CheckResultSchema, 1) as unknown as CheckResult;
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
