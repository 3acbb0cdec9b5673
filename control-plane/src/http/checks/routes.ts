import { z } from 'zod';
import { type RouteDeps, route } from '../route.js';
import { checkTypeResponse, checkTypesJson } from './responses.js';

/** The check types a monitor can be, derived from the registry (domain/checks/registry.ts). */
export const checkTypeRoutes = (_deps: RouteDeps<unknown>) => [
  route({
    method: 'get',
    path: '/check-types',
    tag: 'Monitors',
    response: z.strictObject({ data: z.array(checkTypeResponse) }),
    summary:
      "The check types a monitor can be (`monitor_type`), in the order forms list them: for each, its label, what its `url` is (label, example, and whether it is a write-only secret such as a database's connection URL) and the type's own flat fields with whether they are required, their default and their JSON Schema (the same rules POST /monitors checks). Fields every monitor has (display_name, check_interval_seconds, timeout_seconds, …) are not repeated here.",
    async handler() {
      return { data: checkTypesJson() };
    },
  }),
];
