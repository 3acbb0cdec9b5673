import { memberContract } from './members.js';
import { adapters } from './stores.js';

for (const [name, open] of adapters) memberContract(name, open);
