import { memberContract } from './members.js';
import { adapters, onAdapter } from './stores.js';

for (const a of adapters) onAdapter(a, () => memberContract(a.name, a.open));
