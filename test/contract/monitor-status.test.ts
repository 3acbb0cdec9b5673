import { eachAdapter } from './adapters.js';
import { monitorStatusContract } from './monitor-status.js';

eachAdapter(monitorStatusContract);
