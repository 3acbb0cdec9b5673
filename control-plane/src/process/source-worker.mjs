// The entry of a worker started from TypeScript sources (see module-worker.ts): registers tsx in this
// thread, then runs the module named first on the command line. Not used by built code.
import { register } from 'tsx/esm/api';

const [source] = process.argv.splice(2, 1);
register();
await import(source);
