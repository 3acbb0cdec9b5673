import { z } from 'zod';
import { nextExpectedAt } from '../../domain/heartbeats/heartbeat-view.js';
import { pingSnippets } from '../../domain/heartbeats/ping-snippets.js';
import { describeSchedule } from '../../domain/heartbeats/schedule-text.js';
import type { DependencyNode } from '../../domain/monitors/depends-on.js';
import type { Heartbeat } from '../../domain/types.js';
import { dependenciesJson, dependencyResponse } from '../dependency-responses.js';
import { labelResponse } from '../groups/responses.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

export const pingSnippetResponse = z
  .strictObject({
    kind: z.enum(['crontab', 'systemd', 'kubernetes']),
    title: z.string(),
    text: z.string(),
  })
  .register(responseSchemas, { id: 'PingSnippet' });

export const heartbeatResponse = z
  .strictObject({
    id: uuidString,
    display_name: z.string(),
    period_seconds: z.number().int().nullable().describe('Null when the heartbeat runs on a schedule.'),
    schedule: z.string().nullable().describe('Cron schedule (five fields or a nickname); null: by period.'),
    timezone: z.string().describe('IANA time zone the schedule is read in.'),
    schedule_text: z
      .string()
      .describe('The schedule in words, e.g. "At 03:00, Monday through Friday, Europe/Berlin".'),
    slug: z.string().nullable(),
    grace_seconds: z.number().int(),
    next_expected_at: time
      .nullable()
      .describe('When the next ping is expected (late from then, down after the grace).'),
    last_duration_ms: z
      .number()
      .int()
      .nullable()
      .describe('How long the last run took, /start to its finish.'),
    pinging_too_often: z
      .boolean()
      .describe('Far more pings than its schedule expects (flagged, not alerted).'),
    ping_snippets: z
      .array(pingSnippetResponse)
      .describe('Copy-paste lines for crontab, systemd and Kubernetes.'),
    state: z.enum(['new', 'up', 'late', 'down', 'paused']),
    last_ping_at: time.nullable(),
    escalation_policy_id: z.string(),
    depends_on: z.array(z.string()).describe('Monitors, heartbeats or groups this heartbeat depends on.'),
    dependencies: z.array(dependencyResponse).describe('`depends_on` with the kind and name of each.'),
    suppressed_by: z
      .string()
      .nullable()
      .describe('While down: the dependency, down too, that holds its alert back; null otherwise.'),
    paused: z.boolean(),
    ...labelResponse,
    version: z.number().int(),
    started_at: time.nullable(),
    start_rid: z.string().nullable(),
    alert_id: z.string().nullable(),
    ping_url: z.string(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'Heartbeat' });

export const heartbeatJson = (
  h: Heartbeat,
  pingUrl: string,
  {
    now,
    tooOften,
    suppressedBy = null,
    nodes = new Map(),
  }: { now: Date; tooOften: boolean; suppressedBy?: string | null; nodes?: Map<string, DependencyNode> },
): z.output<typeof heartbeatResponse> => {
  // due_at, state_version and rearmed_at are the deadline job's bookkeeping, not part of the API.
  const { workspace_id: _w, due_at: _d, state_version: _v, rearmed_at: _ra, ...rest } = h;
  const timing = { schedule: h.schedule ?? null, timezone: h.timezone || 'UTC' };
  return {
    ...rest,
    ...timing,
    period_seconds: timing.schedule ? null : h.period_seconds,
    schedule_text: describeSchedule({ ...timing, period_seconds: h.period_seconds }),
    slug: h.slug ?? null,
    next_expected_at: iso(nextExpectedAt(h, now)),
    last_duration_ms: h.last_duration_ms ?? null,
    pinging_too_often: tooOften,
    depends_on: h.depends_on ?? [],
    dependencies: dependenciesJson(h.depends_on, nodes),
    suppressed_by: h.state === 'down' ? suppressedBy : null,
    ping_snippets: pingSnippets(h, pingUrl),
    ping_url: pingUrl,
    last_ping_at: iso(h.last_ping_at),
    started_at: iso(h.started_at),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
};
