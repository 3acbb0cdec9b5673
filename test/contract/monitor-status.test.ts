import { monitorStatusContract } from './monitor-status.js';
import { adapters } from './stores.js';

for (const [name, open] of adapters) monitorStatusContract(name, open);
