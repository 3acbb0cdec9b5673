/**
 * The bytes of `grpc.health.v1.Health/Check` (grpc/grpc-proto, grpc/health/v1/health.proto): the
 * request `HealthCheckRequest { string service = 1; }` and the response
 * `HealthCheckResponse { ServingStatus status = 1; }`, each in gRPC's length-prefixed frame. Two
 * one-field messages: written and read here by hand instead of through generated code.
 */
export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

/** HealthCheckResponse.ServingStatus, by number. */
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

/** gRPC status codes, by number (as the gRPC project's status code document lists them). */
export const GRPC_CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
};

/** The framed request for `service` ('' asks about the server as a whole: an empty message). */
export const healthCheckRequest = (service: string): Buffer => {
  const name = Buffer.from(service, 'utf8');
  const head = name.length > 0 ? [0x0a, ...varint(name.length)] : [];
  const length = head.length + name.length;
  const frame = Buffer.allocUnsafe(5 + length);
  frame[0] = 0; // not compressed
  frame.writeUInt32BE(length, 1);
  frame.set(head, 5);
  name.copy(frame, 5 + head.length);
  return frame;
};

/** A response the agent cannot read (the check fails saying so). */
export class MalformedResponse extends Error {
  readonly code = 'EGRPCMALFORMED';
}

/** Reads a varint at `at`: [value, next offset]. Values past 2^32 are not needed here and refused. */
const readVarint = (buf: Buffer, at: number): [number, number] => {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (at >= buf.length) throw new MalformedResponse('a truncated health response');
    const byte = buf[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
  throw new MalformedResponse('a health response with an oversized number');
};

/**
 * The serving status in a response body (the frame's prefix included): its number, 0 (UNKNOWN) when
 * the field is absent, as protobuf reads a missing enum. Other fields are skipped; a compressed or
 * malformed frame throws MalformedResponse.
 */
export const servingStatusOf = (body: Buffer): number => {
  if (body.length < 5) throw new MalformedResponse('no health response message');
  if (body[0] !== 0) throw new MalformedResponse('a compressed health response (none was offered)');
  const length = body.readUInt32BE(1);
  if (body.length < 5 + length) throw new MalformedResponse('a truncated health response');
  const msg = body.subarray(5, 5 + length);
  let status = 0;
  let at = 0;
  while (at < msg.length) {
    const [key, next] = readVarint(msg, at);
    at = next;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const [value, after] = readVarint(msg, at);
      at = after;
      if (field === 1) status = value;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const [len, after] = readVarint(msg, at);
      at = after + len;
    } else throw new MalformedResponse(`a health response with wire type ${wire}`);
    if (at > msg.length) throw new MalformedResponse('a truncated health response');
  }
  return status;
};

/** The name of a serving status or a gRPC code, or its number for one this table does not know. */
export const nameOf = (table: readonly string[], n: number): string => table[n] ?? String(n);
