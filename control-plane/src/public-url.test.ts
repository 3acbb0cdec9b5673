import { describe, expect, it } from 'vitest';
import { workspaceBaseUrl } from './public-url.js';

describe('workspaceBaseUrl', () => {
  it.each([
    [
      { public_url_scheme: 'https', service_domain: 'lookout.example.com', public_port: 443 },
      8080,
      'https://acme.lookout.example.com',
    ],
    [
      { public_url_scheme: 'https', service_domain: 'lookout.example.com', public_port: 8443 },
      8080,
      'https://acme.lookout.example.com:8443',
    ],
    [
      { public_url_scheme: 'http', service_domain: 'localhost', public_port: undefined },
      8080,
      'http://acme.localhost:8080',
    ],
    [
      { public_url_scheme: 'http', service_domain: 'localhost', public_port: 80 },
      8080,
      'http://acme.localhost',
    ],
    [
      { public_url_scheme: 'http', service_domain: 'localhost', public_port: 443 },
      8080,
      'http://acme.localhost:443',
    ],
  ] as const)('%o listening on %i → %s', (config, listenPort, url) => {
    expect(workspaceBaseUrl(config, 'acme', listenPort)).toBe(url);
  });
});
