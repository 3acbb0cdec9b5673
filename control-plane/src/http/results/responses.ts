import { z } from 'zod';
import type { CheckResultRecord } from '../../domain/types.js';
import { iso, responseSchemas, time } from '../responses.js';

export const resultResponse = z
  .strictObject({
    id: z.string(),
    monitor_id: z.string(),
    monitor_version: z.number().int(),
    location: z.string(),
    instance_id: z.string(),
    scheduled_at: time,
    started_at: time,
    received_at: time,
    ok: z.boolean(),
    error_kind: z.string().nullable(),
    error_message: z.string().nullable(),
    response_time_ms: z.number(),
    status_code: z.number().int().nullable(),
    timings: z
      .strictObject({
        dns_ms: z.number(),
        connect_ms: z.number(),
        tls_ms: z.number(),
        first_byte_ms: z.number(),
        total_ms: z.number(),
      })
      .nullable(),
    tls_valid_to: time.nullable(),
    domain_expires_at: time.nullable(),
    dns_records: z.array(z.string()),
    run_now_request_id: z.string().nullable(),
    in_maintenance: z
      .boolean()
      .describe('A maintenance window covered the monitor at scheduled_at when the result came in.'),
  })
  .register(responseSchemas, { id: 'CheckResult' });

export const resultJson = (r: CheckResultRecord): z.output<typeof resultResponse> => {
  const { workspace_id: _w, ...rest } = r;
  return {
    ...rest,
    scheduled_at: r.scheduled_at.toISOString(),
    started_at: r.started_at.toISOString(),
    received_at: r.received_at.toISOString(),
    tls_valid_to: iso(r.tls_valid_to),
    domain_expires_at: iso(r.domain_expires_at),
    in_maintenance: r.in_maintenance === true,
  };
};
