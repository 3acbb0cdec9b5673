import { create } from '@bufbuild/protobuf';
import { AssignmentSchema, CheckSpecSchema } from '@lookout/proto';
import { MONITOR_TYPES } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import { specOf } from './wire.js';

const assignment = (monitorType: string) =>
  create(AssignmentSchema, {
    monitorId: 'm1',
    version: 1n,
    spec: create(CheckSpecSchema, { monitorType, url: 'example.com', intervalSeconds: 60 }),
  });

describe('specOf', () => {
  it('accepts every monitor type of the one shared list, and refuses any other', () => {
    expect(MONITOR_TYPES.length).toBeGreaterThan(0);
    for (const type of MONITOR_TYPES) expect(specOf(assignment(type)).monitor_type).toBe(type);
    expect(() => specOf(assignment('gopher'))).toThrow('unsupported monitor type "gopher"');
    expect(() => specOf(assignment(''))).toThrow('unsupported monitor type ""');
  });
});
