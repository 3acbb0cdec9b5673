import { describe, expect, it } from 'vitest';
import {
  clientCapProblem,
  hasOwnSchemeRedirect,
  MAX_CLIENT_METADATA_BYTES,
  MAX_CLIENT_NAME_LENGTH,
  MAX_REDIRECT_URI_LENGTH,
  MAX_REDIRECT_URIS,
  registrationProblem,
} from './oauth-clients.js';

const uris = (...redirect_uris: unknown[]) => ({ client_name: 'x', redirect_uris });

describe('registrationProblem', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://example.com:8443/cb?x=1',
    'http://127.0.0.1:33418/callback',
    'http://localhost/cb',
    'http://localhost:6274/oauth/callback',
    'http://[::1]:9000/cb',
    'com.example.app:/cb',
    'cursor://anysphere.cursor-retrieval/oauth/callback',
  ])('accepts %s', (uri) => {
    expect(registrationProblem(uris(uri))).toBeNull();
  });

  it.each([
    ['http://example.com/cb', /uses http: on example\.com/],
    ['HTTP://Example.com/cb', /uses http: on example\.com/],
    ['http://localhost.evil.example/cb', /uses http: on localhost\.evil\.example/],
    ['http://127.0.0.1.nip.io/cb', /uses http: on 127\.0\.0\.1\.nip\.io/],
    ['http://10.0.0.5/cb', /uses http: on 10\.0\.0\.5/],
    ['javascript:alert(1)', /must not use the javascript scheme/],
    ['data:text/html,hi', /must not use the data scheme/],
    ['file:///etc/passwd', /must not use the file scheme/],
    ['view-source:https://a.example/', /must not use the view-source scheme/],
    ['filesystem:https://a.example/temporary/x', /must not use the filesystem scheme/],
    ['ftp://a.example/cb', /must not use the ftp scheme/],
    ['ws://127.0.0.1:1/cb', /must not use the ws scheme/],
    ['wss://a.example/cb', /must not use the wss scheme/],
    ['myapp:/cb', /must not use the myapp scheme; .*reverse-DNS form/],
    ['com.:/cb', /must not use the com\. scheme/],
  ])('refuses %s as invalid_redirect_uri', (uri, why) => {
    const p = registrationProblem(uris('https://ok.example/cb', uri));
    expect(p?.error).toBe('invalid_redirect_uri');
    expect(p?.description).toMatch(/^redirect_uris \[1\] /);
    expect(p?.description).toMatch(why);
  });

  it('caps the number and length of redirect URIs', () => {
    const many = Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, i) => `https://a.example/${i}`);
    expect(registrationProblem(uris(...many.slice(0, MAX_REDIRECT_URIS)))).toBeNull();
    expect(registrationProblem(uris(...many))).toEqual({
      error: 'invalid_redirect_uri',
      description: `redirect_uris must have at most ${MAX_REDIRECT_URIS} members (got ${MAX_REDIRECT_URIS + 1})`,
    });
    const long = `https://a.example/${'x'.repeat(MAX_REDIRECT_URI_LENGTH)}`;
    expect(registrationProblem(uris(long))?.description).toBe(
      `redirect_uris [0] is longer than ${MAX_REDIRECT_URI_LENGTH} characters`,
    );
  });

  it('caps client_name at 100 characters', () => {
    expect(registrationProblem({ client_name: 'é'.repeat(MAX_CLIENT_NAME_LENGTH) })).toBeNull();
    expect(registrationProblem({ client_name: 'x'.repeat(MAX_CLIENT_NAME_LENGTH + 1) })).toEqual({
      error: 'invalid_client_metadata',
      description: `client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters (got ${MAX_CLIENT_NAME_LENGTH + 1})`,
    });
  });

  it('caps the whole metadata at 16 KB, whatever field carries it', () => {
    const at = (n: number) => ({ redirect_uris: ['https://a.example/cb'], 'urn:x': 'x'.repeat(n) });
    const base = JSON.stringify(at(0)).length;
    expect(registrationProblem(at(MAX_CLIENT_METADATA_BYTES - base))).toBeNull();
    const p = registrationProblem(at(MAX_CLIENT_METADATA_BYTES - base + 1));
    expect(p?.error).toBe('invalid_client_metadata');
    expect(p?.description).toMatch(/at most 16 KB/);
  });

  it('leaves types and syntax to the authorization server', () => {
    expect(registrationProblem(undefined)).toBeNull();
    expect(registrationProblem({ redirect_uris: 'https://a.example' })).toBeNull();
    expect(registrationProblem(uris(42, 'not a url'))).toBeNull();
  });
});

describe('clientCapProblem', () => {
  const now = new Date('2026-03-01T10:00:00Z');
  const c = (count: number, inSeconds?: number) => ({
    count,
    next_expiry: inSeconds === undefined ? null : new Date(now.getTime() + inSeconds * 1000),
  });
  it('refuses at the per-workspace cap first, then at the total; 0 is no cap', () => {
    const caps = { perWorkspace: 2, total: 5 };
    expect(clientCapProblem(caps, { workspace: c(1), total: c(4) }, now)).toBeNull();
    expect(clientCapProblem(caps, { workspace: c(2, 90.5), total: c(5) }, now)).toEqual({
      description: expect.stringMatching(/This workspace has 2 registered OAuth clients, its limit/),
      retryAfterSeconds: 91,
    });
    expect(clientCapProblem(caps, { workspace: c(1), total: c(5) }, now)).toEqual({
      description: expect.stringMatching(/The service has reached its limit/),
      retryAfterSeconds: 3600,
    });
    expect(
      clientCapProblem({ perWorkspace: 0, total: 0 }, { workspace: c(9), total: c(99) }, now),
    ).toBeNull();
  });
});

describe('hasOwnSchemeRedirect', () => {
  it('is true when some redirect URI is neither https: nor http:', () => {
    expect(hasOwnSchemeRedirect(['http://127.0.0.1:1/cb', 'com.example.app:/cb'])).toBe(true);
    expect(hasOwnSchemeRedirect(['https://a.example/cb', 'http://localhost/cb'])).toBe(false);
    expect(hasOwnSchemeRedirect('com.example.app:/cb')).toBe(false);
  });
});
