import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configFileSchema } from './config-file.js';
import { SCHEMA_PATH, schemaText } from './write-schema.js';

describe('the configuration file schema', () => {
  it('is published in docs/ as generated from the API’s schemas (run `npm run schema:config` when this fails)', () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8')).toBe(schemaText());
  });

  it('takes the API’s field names with references by name, and names every bad field', () => {
    const ok = configFileSchema.safeParse({
      version: 1,
      monitors: [
        {
          display_name: 'Home',
          monitor_type: 'http',
          url: 'https://example.com',
          escalation_policy: 'Night',
        },
      ],
      escalation_policies: [{ name: 'Night', steps: [{ wait_minutes: 0, notify_channels: ['Ops'] }] }],
    });
    expect(ok.success).toBe(true);
    const bad = configFileSchema.safeParse({
      monitors: [{ display_name: 'Home', monitor_type: 'ftp', url: 'x', escalation_policy_id: 'a' }],
      widgets: [],
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      '',
      'monitors.0',
      'monitors.0.monitor_type',
    ]);
  });

  it('takes schedules whose layers name users by email, and policy steps naming schedules by name', () => {
    const layer = {
      name: 'Weekly',
      users: ['alice@example.com', 'bob@example.com'],
      rotation: 'weekly',
      handoff: '09:00',
      handoff_day: 'mon',
      starts_at: '2026-01-05T08:00:00Z',
      restrictions: [{ days: ['mon', 'tue'], start: '09:00', end: '17:00' }],
    };
    const ok = configFileSchema.safeParse({
      schedules: [{ name: 'Primary', timezone: 'Europe/Berlin', layers: [layer] }],
      escalation_policies: [{ name: 'Page', steps: [{ wait_minutes: 0, notify_schedules: ['Primary'] }] }],
    });
    expect(ok.success, JSON.stringify(ok.error?.issues)).toBe(true);
    const bad = configFileSchema.safeParse({
      schedules: [
        {
          name: 'Primary',
          timezone: 'Europe/Berlin',
          layers: [{ ...layer, users: [], rotation: 'hourly' }],
        },
      ],
      escalation_policies: [{ name: 'Page', steps: [{ wait_minutes: 0, notify_schedule_ids: ['x'] }] }],
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'escalation_policies.0.steps.0',
      'schedules.0.layers.0.rotation',
      'schedules.0.layers.0.users',
    ]);
  });
});
