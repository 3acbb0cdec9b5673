import type { NotificationChannel, Page, PageQuery } from '../types.js';

/**
 * Notification channels. Adapters: store/sqlite/routing.ts, store/mongo/routing.ts; contract
 * test/contract/routing.test.ts.
 */
export interface ChannelStore {
  insertChannel(channel: NotificationChannel): Promise<void>;
  getChannel(workspaceId: string, id: string): Promise<NotificationChannel | null>;
  /** Newest first, paged. */
  listChannels(workspaceId: string, query: PageQuery): Promise<Page<NotificationChannel>>;
  /** Replaces the channel; false when it does not exist. */
  updateChannel(channel: NotificationChannel): Promise<boolean>;
  /** Refuses a channel that an escalation policy still notifies. */
  deleteChannel(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'>;
}
