import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METADATA_MAX_BYTES } from '../../domain/access/saml-metadata.js';
import { fetchMetadataXml } from './saml-metadata-fetch.js';

let base = '';
const server = createServer((req, res) => {
  if (req.url === '/ok') return res.end('<md:EntityDescriptor/>');
  if (req.url === '/huge') return res.end('x'.repeat(METADATA_MAX_BYTES + 1));
  if (req.url === '/slow') return; // never answers
  if (req.url === '/moved') return res.writeHead(302, { location: '/ok' }).end();
  res.writeHead(404).end();
});

beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('fetching IdP metadata from an admin-given URL', () => {
  it('by default: https only, and never a private or loopback address (literal or after DNS)', async () => {
    const port = new URL(base).port;
    await expect(fetchMetadataXml(`${base}/ok`, { allowPrivate: false })).rejects.toThrow(
      'the URL must be https',
    );
    await expect(fetchMetadataXml(`https://127.0.0.1:${port}/ok`, { allowPrivate: false })).rejects.toThrow(
      /not an allowed destination/,
    );
    await expect(fetchMetadataXml('https://[::1]/ok', { allowPrivate: false })).rejects.toThrow(/allowed/);
    await expect(fetchMetadataXml(`https://localhost:${port}/ok`, { allowPrivate: false })).rejects.toThrow(
      'its address is not allowed',
    );
  });

  it('within limits: size, time, no redirects, 200 only', async () => {
    const opts = { allowPrivate: true, timeoutMs: 300 };
    expect(await fetchMetadataXml(`${base}/ok`, opts)).toBe('<md:EntityDescriptor/>');
    await expect(fetchMetadataXml(`${base}/huge`, opts)).rejects.toThrow(/larger than 256 KiB/);
    await expect(fetchMetadataXml(`${base}/slow`, opts)).rejects.toThrow();
    await expect(fetchMetadataXml(`${base}/moved`, opts)).rejects.toThrow('the server answered 302');
    await expect(fetchMetadataXml(`${base}/nope`, opts)).rejects.toThrow('the server answered 404');
  });
});
