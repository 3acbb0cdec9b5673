import { describe, expect, it } from 'vitest';
import type { Alert } from '../types.js';
import { groupMessage } from './group-message.js';
import { alertMessage, bareContext } from './messages.js';

const T = new Date('2026-12-07T10:00:00Z');
const alert = (held_back: number): Alert => ({
  id: '00000000-0000-4000-8000-000000000001',
  workspace_id: 'w',
  source_type: 'monitor',
  source_id: 'm',
  cause: 'down',
  dedup_key: '',
  title: 'Core switch is down',
  description: 'Failing from eu-west.',
  severity: 'critical',
  status: 'open',
  escalation_policy_id: null,
  created_at: T,
  updated_at: T,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  escalation: null,
  escalation_due_at: null,
  held_back,
});

describe('the held-back count in messages (dependencies)', () => {
  it('an alert holding dependents back says how many, alone or in a grouped message; none says nothing', () => {
    const one = (n: number) =>
      alertMessage(bareContext('acme', alert(n)), alert(n), { step: 0, round: 0 }, 'd', T).text;
    expect(one(3)).toContain('Holding back 3 dependents: they are down too');
    expect(one(1)).toContain('Holding back 1 dependent:');
    expect(one(0)).not.toContain('Holding back');
    const grouped = groupMessage(
      { subdomain: 'acme', appUrl: null },
      null,
      [{ alert: alert(5000), event: 'raised', source: { label: 'Monitor “Core switch”', path: null } }],
      'd',
      T,
      null,
    ).text;
    expect(grouped).toContain('holding back 5000 dependents');
  });
});
