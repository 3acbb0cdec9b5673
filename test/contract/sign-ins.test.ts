import { signInScenarios } from './sign-ins.js';
import { contract } from './stores.js';

contract('SignInStore', signInScenarios);
