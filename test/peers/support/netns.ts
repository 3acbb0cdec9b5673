import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * A network namespace made by the test (root only), joined to this one by a veth pair: the address
 * inside it is reachable, never an outside one. 198.18.0.0/15 is the benchmarking range (RFC 2544):
 * no real network uses it.
 */
export interface TestNetns {
  name: string;
  /** The address of the namespace's end of the pair. */
  inside: string;
  /** An address of the namespace's network that no one holds: asking for it ends in Host Unreachable. */
  unheld: string;
  /** Runs a command inside the namespace. */
  exec(args: string[]): string;
  remove(): void;
}

/** Why this host cannot make one (not root, no `ip`, no namespaces in a container), or null. */
export const netnsSkipReason = (): string | null => {
  if (process.getuid?.() !== 0) return 'needs root: the test makes a network namespace (ip netns)';
  const probe = `lookout-probe-${process.pid}`;
  try {
    ip(['netns', 'add', probe]);
    ip(['netns', 'del', probe]);
    return null;
  } catch (e) {
    return `cannot make a network namespace here: ${(e as Error).message.split('\n')[0]}`;
  }
};

const ip = (args: string[]) => execFileSync('ip', args, { encoding: 'utf8' });

export const createTestNetns = (): TestNetns => {
  const tag = randomBytes(3).toString('hex');
  const name = `lookout-${tag}`;
  const host = `lkh${tag}`;
  const peer = `lkn${tag}`;
  const net = `198.18.${randomBytes(1)[0]!}`;
  const inside = `${net}.2`;
  ip(['netns', 'add', name]);
  const exec = (args: string[]) => execFileSync('ip', ['netns', 'exec', name, ...args], { encoding: 'utf8' });
  const remove = () => {
    try {
      ip(['link', 'del', host]);
    } catch {
      // gone with the namespace
    }
    ip(['netns', 'del', name]);
  };
  try {
    ip(['link', 'add', host, 'type', 'veth', 'peer', 'name', peer]);
    ip(['link', 'set', peer, 'netns', name]);
    ip(['addr', 'add', `${net}.1/29`, 'dev', host]);
    ip(['link', 'set', host, 'up']);
    exec(['ip', 'addr', 'add', `${inside}/29`, 'dev', peer]);
    exec(['ip', 'link', 'set', peer, 'up']);
    exec(['ip', 'link', 'set', 'lo', 'up']);
  } catch (e) {
    remove();
    throw e;
  }
  return { name, inside, unheld: `${net}.3`, exec, remove };
};
