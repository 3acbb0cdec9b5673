import { monitorListContract } from './monitor-list.js';
import { monitorStatusContract } from './monitor-status.js';
import { adapters, onAdapter } from './stores.js';

for (const a of adapters) onAdapter(a, () => monitorStatusContract(a.name, a.open));
for (const a of adapters) onAdapter(a, () => monitorListContract(a.name, a.open));
