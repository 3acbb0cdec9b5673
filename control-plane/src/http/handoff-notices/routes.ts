import { z } from 'zod';
import type { HandoffNoticeStore } from '../../domain/oncall/handoff-notice-store.js';
import {
  HANDOFF_DEFAULTS,
  handoffSettingsBody,
  handoffSettingsOf,
  MAX_LEAD_MINUTES,
  MIN_LEAD_MINUTES,
  putHandoffSettings,
} from '../../domain/oncall/handoff-notices.js';
import { responseSchemas } from '../responses.js';
import { type RouteDeps, route } from '../route.js';

const TAG = 'Schedules';

export const handoffSettingsResponse = z
  .strictObject({
    enabled: z.boolean(),
    lead_minutes: z.number().int(),
  })
  .register(responseSchemas, { id: 'HandoffNoticeSettings' });

/** The caller's own handoff notices (any signed-in user; an API key acts as its user). */
export const handoffNoticeRoutes = ({ store, clock }: RouteDeps<HandoffNoticeStore>) => [
  route({
    method: 'get',
    path: '/me/handoff-notices',
    tag: TAG,
    response: handoffSettingsResponse,
    summary: `Your handoff notices: whether you get a notice \`lead_minutes\` before each of your on-call shifts starts and another when it starts, through your verified contact methods and account email (defaults: enabled, ${HANDOFF_DEFAULTS.lead_minutes} minutes).`,
    async handler({ auth }) {
      const s = await handoffSettingsOf(store, auth.workspace.id, auth.user.id);
      return { enabled: s.enabled, lead_minutes: s.lead_minutes };
    },
  }),
  route({
    method: 'put',
    path: '/me/handoff-notices',
    tag: TAG,
    response: handoffSettingsResponse,
    summary: `Change your handoff notices: \`{"enabled", "lead_minutes"}\` (${MIN_LEAD_MINUTES}…${MAX_LEAD_MINUTES}); a field left out keeps its value.`,
    body: handoffSettingsBody,
    responses: { 422: 'Invalid fields' },
    async handler({ auth, body }) {
      const s = await putHandoffSettings(store, auth.workspace.id, auth.user.id, body, clock.now());
      return { enabled: s.enabled, lead_minutes: s.lead_minutes };
    },
  }),
];
