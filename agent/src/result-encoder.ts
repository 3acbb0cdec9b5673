import { toBinary } from '@bufbuild/protobuf';
import { type CheckResult, ScriptReportSchema } from '@lookout/proto';

/**
 * CheckResult's wire bytes, written directly: the same bytes protobuf-es's `toBinary` writes (field
 * order, proto3 defaults left out, unset messages absent), without its per-field reflection and one
 * `Uint8Array` per string. The agent encodes every result it reports, so this is per-check work;
 * result-encoder.test.ts holds it to `toBinary` byte for byte, over every field of the schema.
 */

/** Where results are written before they are copied out (grown as needed, reused: one agent, one thread). */
let scratch = Buffer.allocUnsafe(64 * 1024);
let pos = 0;

const room = (n: number) => {
  if (pos + n <= scratch.length) return;
  const next = Buffer.allocUnsafe(Math.max(scratch.length * 2, pos + n));
  scratch.copy(next, 0, 0, pos);
  scratch = next;
};

/** A non-negative integer up to 2^53 as a varint. */
const varint = (v: number) => {
  room(10);
  while (v > 0x7f) {
    scratch[pos++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  scratch[pos++] = v;
};
const varintSize = (v: number) => {
  let n = 1;
  while (v > 0x7f) {
    n++;
    v = Math.floor(v / 128);
  }
  return n;
};
/** An int64 or uint64 as protobuf writes it: a negative one as its 64-bit two's complement (10 bytes). */
const varint64 = (v: bigint) => {
  if (v >= 0n && v <= 9007199254740991n) return varint(Number(v));
  room(10);
  let u = BigInt.asUintN(64, v);
  while (u > 0x7fn) {
    scratch[pos++] = Number(u & 0x7fn) | 0x80;
    u >>= 7n;
  }
  scratch[pos++] = Number(u);
};
const varint64Size = (v: bigint) => {
  if (v >= 0n && v <= 9007199254740991n) return varintSize(Number(v));
  let n = 1;
  for (let u = BigInt.asUintN(64, v); u > 0x7fn; u >>= 7n) n++;
  return n;
};

const VARINT = 0;
const LEN = 2;
const tag = (field: number, wire: number) => varint((field << 3) | wire);

/** A string field, written even when empty (a value of a repeated field). */
const stringValue = (field: number, s: string) => {
  const n = Buffer.byteLength(s);
  tag(field, LEN);
  varint(n);
  room(n);
  pos += scratch.write(s, pos, n, 'utf8');
};
const string = (field: number, s: string) => {
  if (s !== '') stringValue(field, s);
};
const uint32 = (field: number, v: number) => {
  if (v === 0) return;
  tag(field, VARINT);
  varint(v >>> 0);
};
const int64 = (field: number, v: bigint) => {
  if (v === 0n) return;
  tag(field, VARINT);
  varint64(v);
};
const stringSize = (field: number, s: string) => {
  if (s === '') return 0;
  const n = Buffer.byteLength(s);
  return varintSize(field << 3) + varintSize(n) + n;
};
const uint32Size = (field: number, v: number) => (v === 0 ? 0 : varintSize(field << 3) + varintSize(v >>> 0));
const int64Size = (field: number, v: bigint) => (v === 0n ? 0 : varintSize(field << 3) + varint64Size(v));

const writeResult = (r: CheckResult) => {
  string(1, r.resultId);
  string(2, r.monitorId);
  int64(3, r.monitorVersion);
  int64(4, r.scheduledAtMs);
  int64(5, r.startedAtMs);
  if (r.ok) {
    tag(6, VARINT);
    varint(1);
  }
  string(7, r.errorKind);
  string(8, r.errorMessage);
  uint32(9, r.responseTimeMs);
  uint32(10, r.statusCode);
  const t = r.timings;
  if (t) {
    tag(11, LEN);
    varint(
      uint32Size(1, t.dnsMs) +
        uint32Size(2, t.connectMs) +
        uint32Size(3, t.tlsMs) +
        uint32Size(4, t.firstByteMs) +
        uint32Size(5, t.totalMs),
    );
    uint32(1, t.dnsMs);
    uint32(2, t.connectMs);
    uint32(3, t.tlsMs);
    uint32(4, t.firstByteMs);
    uint32(5, t.totalMs);
  }
  const tls = r.tls;
  if (tls) {
    tag(12, LEN);
    varint(int64Size(1, tls.validToMs) + stringSize(2, tls.subject) + stringSize(3, tls.issuer));
    int64(1, tls.validToMs);
    string(2, tls.subject);
    string(3, tls.issuer);
  }
  const domain = r.domain;
  if (domain) {
    tag(13, LEN);
    varint(int64Size(1, domain.expiresAtMs));
    int64(1, domain.expiresAtMs);
  }
  // A repeated string is one field per value, empty values included.
  for (const d of r.dnsRecords) stringValue(14, d);
  string(15, r.runNowRequestId);
  // Scripted checks only (a few per second at most): protobuf-es writes the nested message.
  if (r.script) {
    const b = toBinary(ScriptReportSchema, r.script);
    tag(16, LEN);
    varint(b.length);
    room(b.length);
    scratch.set(b, pos);
    pos += b.length;
  }
};

/** Room kept before a record's message for its tag and length (two varints of at most 5 bytes). */
const HEADER = 10;

/**
 * One result as one record of a repeated message field `field`: its tag, its length and its bytes,
 * exactly what protobuf-es writes for that element of the list. A view on a scratch buffer, valid
 * until the next call: copy it out (waiting-results.ts does, into its own buffer).
 */
export const encodeRecord = (field: number, r: CheckResult): Buffer => {
  pos = HEADER;
  room(0);
  writeResult(r);
  const end = pos;
  const n = end - HEADER;
  const head = varintSize((field << 3) | LEN) + varintSize(n);
  pos = HEADER - head;
  tag(field, LEN);
  varint(n);
  return scratch.subarray(HEADER - head, end);
};
