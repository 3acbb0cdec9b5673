import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ok } from '../api-client/client.js';
import type { McpApi } from './api.js';

/** `triage_open_alerts`: the unresolved alerts of the workspace, and how to work through them. */

interface AlertRow {
  id: string;
  status: string;
  severity: string;
  source_type: string;
  source_id: string;
  cause: string;
  title: string;
  created_at: string;
  acknowledged_at: string | null;
  escalation: { waiting_for_support_hours_until: string | null } | null;
}

export const triagePrompt = {
  name: 'triage_open_alerts',
  title: 'Triage open alerts',
  description:
    'Walk through the unresolved alerts of the workspace: group them by source, find the likely cause from check results, uptime and heartbeat state, and propose who acknowledges what. Nothing is changed without asking.',
  args: {
    focus: z.string().optional().describe('Optional: a service, monitor name or region to look at first.'),
  },
};

const MAX_ALERTS = 100;

const line = (a: AlertRow) =>
  `- ${a.id} [${a.status}, ${a.severity}] ${a.title} — ${a.source_type} ${a.source_id}, cause ${a.cause}, since ${a.created_at}${a.acknowledged_at ? `, acknowledged ${a.acknowledged_at}` : ''}${
    a.escalation?.waiting_for_support_hours_until
      ? `, a warning outside support hours: notifies no one until ${a.escalation.waiting_for_support_hours_until}`
      : ''
  }`;

export const triageMessages = async (api: McpApi, focus?: string): Promise<GetPromptResult> => {
  const page = await ok(
    api.client.GET('/alerts', { params: { query: { status: 'open,acknowledged', limit: MAX_ALERTS } } }),
  );
  const alerts = page.data;
  const listing = alerts.length
    ? `Unresolved alerts (${alerts.length}${page.next_cursor ? '+, newest first; page on with list_alerts' : ''}):\n${alerts.map(line).join('\n')}`
    : 'There are no unresolved alerts right now. Say so, and check list_heartbeats for late jobs that have not alerted yet.';
  const text = `You are helping the on-call engineer of a Lookout workspace (${api.baseUrl}) triage its alerts.

${listing}

How to triage:
1. Group alerts that share a source (source_type + source_id) or started within a few minutes of each other: one outage often raises several alerts.
2. Monitor alerts: call get_monitor, then get_monitor_results (is it failing from every location or one region? which error_kind, status code, response time? since when?) and get_monitor_uptime.
3. Heartbeat alerts: call list_heartbeats and compare last_ping_at with period_seconds + grace_seconds; the job itself is usually what failed.
4. Region alerts (cause no_healthy_agent): the probes of that region are down, not the monitored services; get_region_health shows which regions are unhealthy.
5. Propose actions and ask before taking any: acknowledge_alerts for what someone is working on; resolve_alerts only for integration alerts whose problem is fixed (monitor and heartbeat alerts resolve themselves on recovery, and a resolved alert cannot be reopened); pause_monitor only for planned maintenance.
${focus ? `\nLook first at: ${focus}\n` : ''}
Finish with a short table: alert, severity, since, likely cause, suggested next step.`;
  return {
    description: `Triage of ${alerts.length} unresolved alert${alerts.length === 1 ? '' : 's'}`,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
};
