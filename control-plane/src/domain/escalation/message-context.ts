import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import type { IntegrationStore } from '../integrations/integration-store.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import type { FollowEvent, MessageContext } from '../notifications/messages.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Actor, Alert } from '../types.js';

/**
 * What a notification names besides the alert, read when it is sent: the workspace and its web app's
 * address, the source by its name with a link to its page, and who acknowledged or resolved it.
 */
export const messageContext = ({
  store,
  workspaceUrl,
}: {
  store: Pick<TenancyStore, 'getWorkspace' | 'getUser'> &
    Pick<MonitorStore, 'getMonitor'> &
    Pick<HeartbeatStore, 'getHeartbeat'> &
    Pick<IntegrationStore, 'getIntegration'>;
  workspaceUrl?: ((subdomain: string) => string) | undefined;
}) => {
  /** What a message names besides the alert: the workspace, its web app, the source by name. */
  const contextOf = async (alert: Alert): Promise<MessageContext> => {
    const workspace = await store.getWorkspace(alert.workspace_id);
    const subdomain = workspace?.subdomain ?? '?';
    const appUrl = workspace && workspaceUrl ? workspaceUrl(workspace.subdomain) : null;
    const ws = alert.workspace_id;
    const id = alert.source_id;
    let source: MessageContext['source'] = { label: `${alert.source_type} ${id}`, path: null };
    if (alert.source_type === 'monitor') {
      const m = await store.getMonitor(ws, id);
      if (m) source = { label: `Monitor “${m.display_name}”`, path: `/monitors/${m.id}` };
    } else if (alert.source_type === 'heartbeat') {
      const h = await store.getHeartbeat(ws, id);
      if (h) source = { label: `Heartbeat “${h.display_name}”`, path: `/heartbeats/${h.id}` };
    } else if (alert.source_type === 'integration') {
      const i = await store.getIntegration(ws, id);
      if (i) source = { label: `Integration “${i.name}”`, path: null };
    } else source = { label: `Region ${id}`, path: null };
    return { subdomain, appUrl, source };
  };

  /** Who acknowledged or resolved an alert, by name; null when not known. */
  const actorName = async (alert: Alert, by: Actor | null, event: FollowEvent): Promise<string | null> => {
    if (!by) return null;
    switch (by.type) {
      case 'user':
        return (await store.getUser(alert.workspace_id, by.user_id))?.email ?? 'a user';
      case 'link':
        return `${by.recipient} (from the link in their ${by.via} notification)`;
      case 'integration':
        return 'its integration';
      case 'system':
        return event === 'resolved' && alert.source_type !== 'integration'
          ? 'Lookout (it recovered)'
          : 'Lookout';
    }
  };
  return { contextOf, actorName };
};
