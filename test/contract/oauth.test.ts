import { oauthContract } from './oauth.js';
import { adapters } from './stores.js';

for (const [name, open] of adapters) oauthContract(name, open);
