import { eachAdapter } from './adapters.js';
import { memberContract } from './members.js';

eachAdapter(memberContract);
