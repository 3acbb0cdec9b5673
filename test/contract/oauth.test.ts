import { oauthContract } from './oauth.js';
import { adapters, onAdapter } from './stores.js';

for (const a of adapters) onAdapter(a, () => oauthContract(a.name, a.open));
