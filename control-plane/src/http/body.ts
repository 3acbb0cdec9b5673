import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { AppError } from '@lookout/shared';
import { malformedTextProblems, throwIfProblems } from '../domain/validation.js';

/** Reads the raw body up to `limit` bytes; a larger one is refused as soon as it crosses the limit. */
export const readRaw = async (req: IncomingMessage, limit: number): Promise<Buffer> => {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  // No body at all (the common ping): skip the stream machinery.
  if (declared === 0 && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return Buffer.alloc(0);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    // The body never finished: the server's request timeout ended it (node:http answers 408 itself),
    // or the client went away. A client's failure, not ours: never a 500 in the logs or the metrics.
    throw new AppError('request_timeout', 'The request body did not arrive in time.');
  }
  return Buffer.concat(chunks);
};

const tooLarge = (limit: number) =>
  new AppError('payload_too_large', `The request body is larger than ${limit} bytes.`);

export const isJsonType = (type: string | undefined) => {
  const t = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
};

/**
 * The JSON body of a request, or undefined when there is none. A body in another content type is a
 * 415, broken JSON a 400, an oversized one a 413: each with a sentence that says what to send.
 */
export const readJson = async (req: IncomingMessage, limit: number, opts: { lenientType?: boolean } = {}) => {
  const raw = await readRaw(req, limit);
  if (raw.length === 0) return undefined;
  if (!isJsonType(req.headers['content-type'])) {
    if (opts.lenientType) return undefined;
    throw new AppError(
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
    );
  }
  return parseJson(raw);
};

/**
 * How deep a JSON body may nest (arrays and objects). Our own bodies nest four or five levels, the
 * tools' payloads (Alertmanager, Grafana, PagerDuty custom_details) rarely more than ten; 64 leaves
 * room and keeps every later walk, validation or rendering of a body shallow.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Refuses (400) JSON text that nests deeper than `max`, before it is parsed: one pass over the bytes
 * with a counter, no recursion and no allocation. Brackets inside strings do not count; the bytes
 * looked at are ASCII, which never occurs inside a multi-byte UTF-8 sequence. Broken JSON is left for
 * JSON.parse to name.
 */
export const checkJsonDepth = (raw: Uint8Array, max = MAX_JSON_DEPTH) => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) {
        throw new AppError(
          'bad_request',
          `The body is nested more than ${max} levels deep (arrays and objects); send a flatter document.`,
        );
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
};

/**
 * Parses a JSON body, the one way every JSON body the service reads is parsed (API, inbound
 * integrations, pings). Refused: bytes that are not UTF-8 (400; they used to become U+FFFD silently),
 * nesting deeper than MAX_JSON_DEPTH (400, checked before parsing), broken JSON (400, saying where),
 * and text that would be stored altered or dropped — lone UTF-16 surrogates in strings or keys, and
 * `__proto__` keys (422 naming each field).
 */
export const parseJson = (raw: Buffer): unknown => {
  if (!isUtf8(raw))
    throw new AppError('bad_request', 'The body is not valid UTF-8; send JSON text in UTF-8.');
  checkJsonDepth(raw);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8')) as unknown;
  } catch (e) {
    throw new AppError('bad_request', `The body is not valid JSON: ${(e as Error).message}`);
  }
  throwIfProblems(malformedTextProblems(value));
  return value;
};
