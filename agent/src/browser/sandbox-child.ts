import net from 'node:net';
import vm from 'node:vm';
import type { ChildMessage, HostCall, ParentMessage, RunMessage } from './protocol.js';
import type { Bridge, SandboxMethods } from './sandbox-bootstrap.js';

/**
 * The browser sandbox's untrusted half (docs/scripted-checks.md, "The browser sandbox"): run by
 * run-sandboxed.ts as a separate Node process under the permission model, reading nothing but this
 * file, so it imports only Node's built-ins (the others for their types only).
 *
 * The script runs in a vm context with no code generation from strings and `import()` refused, beside
 * the bootstrap (sandbox-bootstrap.ts, whose source the agent sends in the run message), which is given
 * the one bridge to this file. Messages with the agent: one JSON line each way on fd 3 (ParentMessage
 * in, ChildMessage out).
 */

/** What the agent sends first: the run, with the bootstrap's source and the method lists of protocol.ts. */
export type SandboxRunMessage = RunMessage & { bootstrap: string; methods: SandboxMethods };

/** The longest text the bridge takes from the script (one call's arguments, or the report). */
const MAX_BRIDGE_TEXT = 256 * 1024;

/** Runs the run message's script; messages go out through `send`. Returns the function taking host replies. */
export function runScript(
  run: SandboxRunMessage,
  send: (m: ChildMessage) => void,
): (id: number, reply: unknown) => void {
  let nextId = 1;
  let done = false;
  const finish = (m: ChildMessage & { t: 'done' }) => {
    if (done) return;
    done = true;
    send(m);
  };
  const bridge: Bridge = (textIn) => {
    try {
      if (done) return 'the run has ended';
      if (typeof textIn !== 'string') return 'refused';
      if (textIn.length > MAX_BRIDGE_TEXT) return 'arguments too large';
      const m = JSON.parse(textIn) as {
        t?: unknown;
        call?: HostCall;
        ok?: unknown;
        error?: unknown;
        line?: unknown;
        steps?: unknown;
      };
      if (m.t === 'call' && m.call) {
        const id = nextId++;
        send({ t: 'call', id, call: m.call });
        return String(id);
      }
      if (m.t === 'done') {
        finish({
          t: 'done',
          ok: m.ok === true,
          error: typeof m.error === 'string' ? m.error : m.ok === true ? null : 'the script failed',
          line: typeof m.line === 'number' ? m.line : null,
          steps: Array.isArray(m.steps) ? m.steps : [],
        });
        return '';
      }
      return 'refused';
    } catch {
      return 'refused';
    }
  };
  const context = vm.createContext(Object.create(null), {
    name: 'browser script',
    codeGeneration: { strings: false, wasm: false },
  });
  // import() in the context: refused with an error made in the context (never one of this realm).
  let makeError: (message: string) => unknown = () => undefined;
  const importModuleDynamically = (() => {
    throw makeError('import() is not available in a browser script');
  }) as unknown as vm.ScriptOptions['importModuleDynamically'];
  const boot = new vm.Script(`(${run.bootstrap})`, {
    filename: 'sandbox-bootstrap.js',
    importModuleDynamically,
  });
  const bootstrap = boot.runInContext(context) as (
    bridge: Bridge,
    initText: string,
  ) => { deliver: (id: number, replyText: string) => void; start: (fn: unknown) => void };
  const api = bootstrap(bridge, JSON.stringify({ url: run.url, secrets: run.secrets, methods: run.methods }));
  makeError = vm.runInContext('(m) => new Error(m)', context) as (message: string) => unknown;
  /** A function of the context that throws `e`: what a script that throws while being defined is given. */
  const rethrow = vm.runInContext('(e) => () => { throw e; }', context) as (e: unknown) => unknown;
  const { deliver, start } = api;
  let script: vm.Script;
  try {
    script = new vm.Script(`(async function () {${run.script}\n})`, {
      filename: 'script.js',
      importModuleDynamically,
    });
  } catch (e) {
    // A syntax error: made by the compiler in this realm, never by the script.
    const err = e as { name?: string; message?: string; stack?: string };
    const line = /script\.js:(\d+)/.exec(String(err.stack ?? ''));
    finish({
      t: 'done',
      ok: false,
      error: `${err.name ?? 'Error'}: ${String(err.message ?? e)}`,
      line: line ? Number(line[1]) : null,
      steps: [],
    });
    return () => {};
  }
  let fn: unknown;
  try {
    // Runs code only when the script closes the function around it: what it throws is its own,
    // read inside the context, never here.
    fn = script.runInContext(context);
  } catch (e) {
    fn = rethrow(e);
  }
  start(fn);
  return (id, reply) => {
    if (done) return;
    try {
      deliver(id, JSON.stringify(reply));
    } catch {
      // A reply the context could not take ends nothing: the script's own promise decides.
    }
  };
}

function main(): void {
  const channel = new net.Socket({ fd: 3, readable: true, writable: true });
  const send = (m: ChildMessage) => {
    channel.write(`${JSON.stringify(m)}\n`);
    if (m.t === 'done') channel.end();
  };
  // A rejection the script leaves unhandled, or anything thrown late, ends nothing by itself.
  process.on('unhandledRejection', () => {});
  process.on('uncaughtException', () => {});
  let reply: ((id: number, r: unknown) => void) | null = null;
  let buffered = '';
  channel.setEncoding('utf8');
  channel.on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const m = JSON.parse(line) as ParentMessage;
      if (m.t === 'run' && !reply) reply = runScript(m as SandboxRunMessage, send);
      else if (m.t === 'reply' && reply) reply(m.id, m.reply);
      nl = buffered.indexOf('\n');
    }
  });
  channel.on('end', () => process.exit(0));
  channel.on('error', () => process.exit(0));
}

if (process.argv[2] === '--sandbox-child') main();
