import { sessionScenarios } from './sessions.js';
import { contract } from './stores.js';

contract('SessionStore', sessionScenarios);
