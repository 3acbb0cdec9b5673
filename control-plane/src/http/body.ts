import type { IncomingMessage } from 'node:http';
import { AppError } from '@lookout/shared';

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
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
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

/** Parses a JSON body; broken JSON is a 400 that says where. */
export const parseJson = (raw: Buffer): unknown => {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (e) {
    throw new AppError('bad_request', `The body is not valid JSON: ${(e as Error).message}`);
  }
};
