import { z } from 'zod';
import { type AppDeps, route } from '../route.js';
import { userJson } from '../serialize.js';
import { pageQuery } from './query.js';

export const userRoutes = ({ store }: AppDeps) => [
  route({
    method: 'get',
    path: '/users',
    tag: 'Users',
    summary:
      'The users of this workspace (admins), newest first and paged: id (for escalation policy steps), email, role, created_at.',
    role: 'admin',
    query: z.strictObject(pageQuery),
    async handler({ auth, query }) {
      const page = await store.listUsers(auth.workspace.id, query);
      return { data: page.data.map(userJson), next_cursor: page.next_cursor };
    },
  }),
];
