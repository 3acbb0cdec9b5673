import { fromBinary } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import {
  type CheckResult,
  type DomainInfo,
  ScriptReportSchema,
  type Timings,
  type TlsInfo,
} from '@lookout/proto';

/**
 * One CheckResult from its wire bytes, read directly: the message protobuf-es's `fromBinary` returns
 * (same fields, defaults and unset messages), without its per-field reflection. Every result an agent
 * reports is decoded here, so this is per-check work for the control plane; result-decoder.test.ts
 * holds it to `fromBinary` over every field of the schema. Unknown fields are skipped (a newer agent);
 * a known field with the wrong wire type, or bytes that end inside a field, throw.
 */

/** The reader, once the field's wire type is the one its type has. */
const ofType = (r: BinaryReader, no: number, got: WireType, want: WireType) => {
  if (got !== want) throw new Error(`CheckResult field ${no}: wire type ${got}, expected ${want}`);
  return r;
};

/** A message field read to its length: a field inside it that runs past its end is malformed. */
const ended = (r: BinaryReader, end: number) => {
  if (r.pos !== end) throw new Error('CheckResult: a field runs past the end of its message');
};

/** A message field given twice is merged into what the first gave, as protobuf decodes it. */
const timings = (r: BinaryReader, end: number, into: Timings | undefined): Timings => {
  const t: Timings = into ?? {
    $typeName: 'lookout.agent.v1.Timings',
    dnsMs: 0,
    connectMs: 0,
    tlsMs: 0,
    firstByteMs: 0,
    totalMs: 0,
  };
  while (r.pos < end) {
    const [no, wt] = r.tag();
    if (no === 1) t.dnsMs = ofType(r, no, wt, WireType.Varint).uint32();
    else if (no === 2) t.connectMs = ofType(r, no, wt, WireType.Varint).uint32();
    else if (no === 3) t.tlsMs = ofType(r, no, wt, WireType.Varint).uint32();
    else if (no === 4) t.firstByteMs = ofType(r, no, wt, WireType.Varint).uint32();
    else if (no === 5) t.totalMs = ofType(r, no, wt, WireType.Varint).uint32();
    else r.skip(wt, no);
  }
  ended(r, end);
  return t;
};

const tlsInfo = (r: BinaryReader, end: number, into: TlsInfo | undefined): TlsInfo => {
  const t: TlsInfo = into ?? {
    $typeName: 'lookout.agent.v1.TlsInfo',
    validToMs: 0n,
    subject: '',
    issuer: '',
  };
  while (r.pos < end) {
    const [no, wt] = r.tag();
    if (no === 1) t.validToMs = ofType(r, no, wt, WireType.Varint).int64() as bigint;
    else if (no === 2) t.subject = ofType(r, no, wt, WireType.LengthDelimited).string();
    else if (no === 3) t.issuer = ofType(r, no, wt, WireType.LengthDelimited).string();
    else r.skip(wt, no);
  }
  ended(r, end);
  return t;
};

const domainInfo = (r: BinaryReader, end: number, into: DomainInfo | undefined): DomainInfo => {
  const d: DomainInfo = into ?? { $typeName: 'lookout.agent.v1.DomainInfo', expiresAtMs: 0n };
  while (r.pos < end) {
    const [no, wt] = r.tag();
    if (no === 1) d.expiresAtMs = ofType(r, no, wt, WireType.Varint).int64() as bigint;
    else r.skip(wt, no);
  }
  ended(r, end);
  return d;
};

/** Where a length-delimited field read next ends (after checking it ends inside the bytes). */
const endOf = (r: BinaryReader, no: number, wt: WireType) => {
  const end = ofType(r, no, wt, WireType.LengthDelimited).uint32() + r.pos;
  if (end > r.len) throw new Error(`CheckResult field ${no}: ends past the message`);
  return end;
};

export const decodeResult = (bytes: Uint8Array): CheckResult => {
  const r = new BinaryReader(bytes);
  const m: CheckResult = {
    $typeName: 'lookout.agent.v1.CheckResult',
    resultId: '',
    monitorId: '',
    monitorVersion: 0n,
    scheduledAtMs: 0n,
    startedAtMs: 0n,
    ok: false,
    errorKind: '',
    errorMessage: '',
    responseTimeMs: 0,
    statusCode: 0,
    timings: undefined,
    tls: undefined,
    domain: undefined,
    dnsRecords: [],
    runNowRequestId: '',
    script: undefined,
  };
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    switch (no) {
      case 1:
        m.resultId = ofType(r, no, wt, WireType.LengthDelimited).string();
        break;
      case 2:
        m.monitorId = ofType(r, no, wt, WireType.LengthDelimited).string();
        break;
      case 3:
        m.monitorVersion = ofType(r, no, wt, WireType.Varint).uint64() as bigint;
        break;
      case 4:
        m.scheduledAtMs = ofType(r, no, wt, WireType.Varint).int64() as bigint;
        break;
      case 5:
        m.startedAtMs = ofType(r, no, wt, WireType.Varint).int64() as bigint;
        break;
      case 6:
        m.ok = ofType(r, no, wt, WireType.Varint).bool();
        break;
      case 7:
        m.errorKind = ofType(r, no, wt, WireType.LengthDelimited).string();
        break;
      case 8:
        m.errorMessage = ofType(r, no, wt, WireType.LengthDelimited).string();
        break;
      case 9:
        m.responseTimeMs = ofType(r, no, wt, WireType.Varint).uint32();
        break;
      case 10:
        m.statusCode = ofType(r, no, wt, WireType.Varint).uint32();
        break;
      case 11:
        m.timings = timings(r, endOf(r, no, wt), m.timings);
        break;
      case 12:
        m.tls = tlsInfo(r, endOf(r, no, wt), m.tls);
        break;
      case 13:
        m.domain = domainInfo(r, endOf(r, no, wt), m.domain);
        break;
      case 14:
        m.dnsRecords.push(ofType(r, no, wt, WireType.LengthDelimited).string());
        break;
      case 15:
        m.runNowRequestId = ofType(r, no, wt, WireType.LengthDelimited).string();
        break;
      case 16: {
        // Scripted checks only: protobuf-es reads the nested message (a repeated field 16 is not
        // merged as protobuf would; an agent writes it once).
        const end = endOf(r, no, wt);
        m.script = fromBinary(ScriptReportSchema, bytes.subarray(r.pos, end));
        r.pos = end;
        break;
      }
      default:
        r.skip(wt, no);
    }
  }
  if (r.pos !== r.len) throw new Error('CheckResult: a field runs past the end of the message');
  return m;
};
