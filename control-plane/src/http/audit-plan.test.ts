import { describe, expect, it } from 'vitest';
import { auditPlan } from './audit-plan.js';

describe('auditPlan', () => {
  it.each([
    ['post', '/monitors/create', 'monitor.create', 'create', null],
    ['patch', '/monitors/{id}', 'monitor.update', 'update', 'id'],
    ['delete', '/monitors/{id}', 'monitor.delete', 'delete', 'id'],
    ['post', '/monitors/{id}/check', 'monitor.check', 'action', 'id'],
    ['post', '/escalation-policies', 'escalation_policy.create', 'create', null],
    ['patch', '/escalation-policies/{id}', 'escalation_policy.update', 'update', 'id'],
    ['post', '/status-pages/{id}/incidents', 'incident.create', 'create', null],
    ['delete', '/status-pages/{id}/incidents/{incident_id}', 'incident.delete', 'delete', 'incident_id'],
    ['post', '/ping-key/regenerate', 'ping_key.regenerate', 'action', null],
    ['post', '/alerts/acknowledge', 'alert.acknowledge', 'action', null],
    ['put', '/secrets/{name}', 'secret.update', 'update', 'name'],
    ['post', '/users/me/contact-methods', 'contact_method.create', 'create', null],
  ])('%s %s → %s', (method, path, action, kind, idParam) => {
    expect(auditPlan({ method, path })).toMatchObject({ action, kind, idParam });
  });
  it('is null for reads and for routes that say none; a route’s own word wins', () => {
    expect(auditPlan({ method: 'get', path: '/monitors' })).toBeNull();
    expect(auditPlan({ method: 'post', path: '/x/events', audit: { none: 'inbound' } })).toBeNull();
    expect(
      auditPlan({ method: 'patch', path: '/groups/{id}', audit: { resource_type: 'cluster' } }),
    ).toMatchObject({ resource_type: 'cluster', action: 'cluster.update' });
    expect(auditPlan({ method: 'post', path: '/session', audit: { signIn: 'password' } })).toMatchObject({
      action: 'session.sign_in',
    });
    expect(auditPlan({ method: 'delete', path: '/me/ical-url' })).toMatchObject({ self: true });
  });
});
