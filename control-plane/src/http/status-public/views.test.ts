import { describe, expect, it } from 'vitest';
import type { StatusPage } from '../../domain/status-pages/status-page-store.js';
import { publicView } from './views.js';

const componentId = '0b6a3c1e-5d2f-4a7b-9c8d-1e2f3a4b5c6d';
const page = { id: 'p', components: [{ id: componentId }] } as unknown as StatusPage;
const where = { page, base: '/status/acme', url: 'https://acme.example/status/acme' };

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  throw new Error('expected an error');
};

describe('the public views of a status page (path → what is rendered)', () => {
  it.each([
    ['', 'html'],
    ['/', 'html'],
    ['/api/v2/summary.json', 'summary'],
    ['/api/v2/status.json', 'status'],
    ['/feed.atom', 'atom'],
    ['/feed.rss', 'rss'],
    ['/badge.svg', 'badge'],
    [`/components/${componentId}/badge.svg`, `badge:${componentId}`],
  ])('%s is the %s view', (rest, kind) => {
    const view = publicView(where, rest);
    expect(view.kind).toBe(kind);
  });

  it.each([
    '/nothing',
    '/feed.atom/',
    '/api/v2/summary.json.bak',
    '//',
    '/components/not-a-uuid/badge.svg',
    '/components/11111111-2222-4333-8444-555555555555/badge.svg',
    '/constructor',
    '/__proto__',
  ])('%s is a 404', (rest) => {
    expect(errorOf(() => publicView(where, rest))).toBe('not_found');
  });
});
