import { describe, expect, it } from 'vitest';
import { workspaceBaseUrl } from '../../public-url.js';
import { workspaceRelyingParty } from './passkeys.js';

const ws = { id: 'w', subdomain: 'acme', name: 'Acme', plan: 'team', created_at: new Date(0) };

describe('the relying party of a workspace', () => {
  it('is the workspace’s host from configuration, its origin with the public port when it is not the scheme’s', () => {
    const https = (sub: string) =>
      workspaceBaseUrl(
        { public_url_scheme: 'https', service_domain: 'lookout.example.com', public_port: 443 },
        sub,
        8080,
      );
    expect(workspaceRelyingParty(https, ws)).toEqual({
      id: 'acme.lookout.example.com',
      origin: 'https://acme.lookout.example.com',
      name: 'Lookout · Acme',
    });
    const local = (sub: string) =>
      workspaceBaseUrl(
        { public_url_scheme: 'http', service_domain: 'localhost', public_port: undefined },
        sub,
        3000,
      );
    expect(workspaceRelyingParty(local, ws)).toMatchObject({
      id: 'acme.localhost',
      origin: 'http://acme.localhost:3000',
    });
  });
});
