/**
 * The importers' client of another product's API (Healthchecks, UptimeRobot): http(s) only, bounded
 * in time and size, no redirects followed (a redirect could carry the key to another host), and the
 * key never in a message: every error text has it blanked out, whatever the server echoed.
 */

import { ImportInputError } from './import-source.js';

export const SOURCE_TIMEOUT_MS = 30_000;
export const SOURCE_MAX_BYTES = 32 * 1024 * 1024;

/** The API's base address: http(s) only, no credentials in it, no query. */
export const sourceBase = (raw: string, what: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImportInputError(`--api-url "${raw}" is not a URL (${what})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ImportInputError(`--api-url must be an http:// or https:// address, not ${url.protocol}`);
  if (url.username || url.password)
    throw new ImportInputError(
      '--api-url must not carry a user name or password; give the key with --api-key',
    );
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
};

const scrub = (text: string, secret: string) => (secret ? text.split(secret).join('***') : text);

export interface SourceRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The key: blanked out of every message. */
  secret: string;
  timeoutMs?: number;
  maxBytes?: number;
}

/** One request; resolves with the status and the parsed JSON body (null when it is not JSON). */
export const requestJson = async (
  url: URL,
  req: SourceRequest,
): Promise<{ status: number; json: unknown }> => {
  const maxBytes = req.maxBytes ?? SOURCE_MAX_BYTES;
  const where = `${url.origin}${url.pathname}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: req.method,
      headers: { accept: 'application/json', 'user-agent': 'lookout-import', ...req.headers },
      ...(req.body !== undefined ? { body: req.body } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(req.timeoutMs ?? SOURCE_TIMEOUT_MS),
    });
  } catch (e) {
    const cause = (e as Error).name === 'TimeoutError' ? 'no answer in time' : (e as Error).message;
    throw new ImportInputError(scrub(`cannot reach ${where}: ${cause}`, req.secret));
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    throw new ImportInputError(`${where} answered ${res.status} (a redirect, not followed): check --api-url`);
  }
  const chunks: Uint8Array[] = [];
  let size = Number(res.headers.get('content-length') ?? 0);
  if (size > maxBytes) {
    await res.body?.cancel();
    throw new ImportInputError(`${where} answered more than ${maxBytes} bytes`);
  }
  size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) throw new ImportInputError(`${where} answered more than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof ImportInputError) throw e;
    const cause = (e as Error).name === 'TimeoutError' ? 'no answer in time' : (e as Error).message;
    throw new ImportInputError(scrub(`reading ${where}: ${cause}`, req.secret));
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    return { status: res.status, json: null };
  }
};

/** An error of the source in words, the key blanked out. */
export const sourceError = (message: string, secret: string) => new ImportInputError(scrub(message, secret));
