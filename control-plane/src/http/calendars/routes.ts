import { z } from 'zod';
import type { CalendarFeedStore } from '../../domain/oncall/calendar-feed-store.js';
import {
  type CalendarFeedPorts,
  calendarFeedPath,
  createCalendarFeed,
  revokeCalendarFeed,
} from '../../domain/oncall/calendar-feeds.js';
import { idOf } from '../query.js';
import { type RouteDeps, route } from '../route.js';

const urlResponse = z.strictObject({
  url: z.string().describe('The feed’s secret URL, shown this once: whoever has it can read the feed.'),
});

const SUBSCRIBE =
  'Subscribe to it from Google Calendar (Other calendars → From URL) or Apple Calendar (File → New Calendar Subscription). The URL is the credential: it is shown once, and making a new one revokes the old.';

/** Calendar feeds' secret URLs (domain/oncall/calendar-feeds.ts); the feed itself is http/calendar-feed.ts. */
export const calendarRoutes = ({
  store,
  clock,
  workspaceUrl,
}: RouteDeps<CalendarFeedStore & Pick<CalendarFeedPorts, 'getSchedule'>>) => {
  const urlOf = (subdomain: string, token: string) => ({
    url: `${workspaceUrl(subdomain)}${calendarFeedPath(token)}`,
  });
  return [
    route({
      method: 'post',
      path: '/schedules/{id}/ical-url',
      audit: { action: 'calendar_feed.create', resource_type: 'calendar_feed' },
      tag: 'Schedules',
      response: urlResponse,
      summary: `Make the schedule's calendar feed URL (iCalendar: every final shift, 7 days back and 86 ahead), replacing (revoking) the one it had. ${SUBSCRIBE}`,
      role: 'member',
      status: 201,
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params }) {
        const token = await createCalendarFeed(store, {
          workspaceId: auth.workspace.id,
          kind: 'schedule',
          subjectId: idOf(params.id),
          createdBy: auth.user.id,
          now: clock.now(),
        });
        return urlOf(auth.workspace.subdomain, token);
      },
    }),
    route({
      method: 'delete',
      path: '/schedules/{id}/ical-url',
      audit: { action: 'calendar_feed.delete', resource_type: 'calendar_feed' },
      tag: 'Schedules',
      response: null,
      summary: 'Revoke the schedule’s calendar feed URL: calendars subscribed to it get 404 from now on.',
      role: 'member',
      status: 204,
      responses: { 404: 'No such schedule in this workspace, or it has no calendar URL' },
      async handler({ auth, params }) {
        await revokeCalendarFeed(store, auth.workspace.id, 'schedule', idOf(params.id));
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/me/ical-url',
      audit: { action: 'calendar_feed.create', resource_type: 'calendar_feed', self: true },
      tag: 'Schedules',
      response: urlResponse,
      summary: `Make my calendar feed URL (iCalendar: my shifts in every schedule of the workspace, 7 days back and 86 ahead), replacing (revoking) the one I had. ${SUBSCRIBE}`,
      status: 201,
      async handler({ auth }) {
        const token = await createCalendarFeed(store, {
          workspaceId: auth.workspace.id,
          kind: 'user',
          subjectId: auth.user.id,
          createdBy: auth.user.id,
          now: clock.now(),
        });
        return urlOf(auth.workspace.subdomain, token);
      },
    }),
    route({
      method: 'delete',
      path: '/me/ical-url',
      audit: { action: 'calendar_feed.delete', resource_type: 'calendar_feed', self: true },
      tag: 'Schedules',
      response: null,
      summary: 'Revoke my calendar feed URL: calendars subscribed to it get 404 from now on.',
      status: 204,
      responses: { 404: 'I have no calendar URL' },
      async handler({ auth }) {
        await revokeCalendarFeed(store, auth.workspace.id, 'user', auth.user.id);
        return undefined;
      },
    }),
  ];
};
