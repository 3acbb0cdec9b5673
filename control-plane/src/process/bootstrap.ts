import type { Clock } from '@lookout/shared';
import { createNamedKey } from '../domain/access/api-keys.js';
import type { Plan } from '../domain/tenancy/plans.js';
import { createWorkspace } from '../domain/tenancy/workspaces.js';
import type { Store } from '../store/port.js';

export const DEMO = { subdomain: 'demo', email: 'admin@demo.localhost', plan: 'business' };

/**
 * First start: creates the `demo` workspace with an admin and an API key, and returns their secrets
 * to print once. Later starts find it and return null. Two processes starting together: one wins,
 * the other sees a conflict and returns null.
 */
export const ensureDemoWorkspace = async (store: Store, plans: Record<string, Plan>, clock: Clock) => {
  if (await store.getWorkspaceBySubdomain(DEMO.subdomain)) return null;
  const plan = plans[DEMO.plan] ? DEMO.plan : Object.keys(plans)[0]!;
  let created: Awaited<ReturnType<typeof createWorkspace>>;
  try {
    created = await createWorkspace(
      store,
      plans,
      { subdomain: DEMO.subdomain, admin_email: DEMO.email, plan },
      clock.now(),
    );
  } catch (e) {
    if ((e as { code?: string }).code === 'conflict') return null;
    throw e;
  }
  const key = await createNamedKey(
    store,
    created.workspace,
    created.admin,
    { name: 'Quick start', expiry: 'none' },
    clock.now(),
  );
  return { ...created, apiKey: key.value };
};
