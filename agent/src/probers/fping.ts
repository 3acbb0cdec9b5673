import { spawn } from 'node:child_process';

/**
 * fping, the program ping checks run (docs/decisions.md, "ICMP through fping"): one process pings
 * many hosts, so checks due together share one. It is given IP addresses only (the prober resolves
 * names through the SSRF guard first), never a name or anything that could read as an option.
 */

/** What fping told about one address: the round trips of the echoes answered, and an ICMP error if one came. */
export interface EchoReplies {
  /** Round trip in ms per echo answered (lost ones are left out). */
  rtts: number[];
  /** 'ICMP Host Unreachable from 10.1.2.1', when the network said why. */
  icmpError: string | null;
}

export interface FpingRun {
  /** Per address given; an address fping said nothing about has no entry. */
  replies: Map<string, EchoReplies>;
  /** Set when fping itself failed (could not start, bad arguments, no socket): why. */
  failure: string | null;
}

/** What fping writes to stderr at most (its -C summary and ICMP errors); more is cut. */
const STDERR_CAP = 1 << 20;

const SUMMARY = /^(\S+)\s+:((?: (?:\d+(?:\.\d+)?|-))+)\s*$/;
const ICMP_ERROR = /^(ICMP .+) for ICMP Echo sent to (\S+)/;

/** Reads fping's stderr under `-C`: one `address : rtt rtt -` line per target, ICMP errors before them. */
export const parseFpingOutput = (text: string): Map<string, EchoReplies> => {
  const out = new Map<string, EchoReplies>();
  const entry = (address: string) => {
    let e = out.get(address);
    if (!e) {
      e = { rtts: [], icmpError: null };
      out.set(address, e);
    }
    return e;
  };
  for (const line of text.split('\n')) {
    const summary = SUMMARY.exec(line);
    if (summary) {
      const e = entry(summary[1]!);
      for (const v of summary[2]!.trim().split(' ')) if (v !== '-') e.rtts.push(Number(v));
      continue;
    }
    const icmp = ICMP_ERROR.exec(line);
    if (icmp) {
      const e = entry(icmp[2]!);
      e.icmpError ??= icmp[1]!;
    }
  }
  return out;
};

export interface FpingArgs {
  /** Echoes per address. */
  count: number;
  /** ms between echoes to one address, and how long each waits for its reply. */
  periodMs: number;
  /** IP addresses, each once. */
  addresses: readonly string[];
}

/** fping's arguments: `-C` counts, one period and timeout, no retries, 1 ms between any two packets. */
export const fpingArgs = (a: FpingArgs): string[] => [
  '-C',
  String(a.count),
  '-p',
  String(a.periodMs),
  '-t',
  String(a.periodMs),
  '-i',
  '1',
  '-r',
  '0',
  '--',
  ...a.addresses,
];

export interface RunningFping {
  done: Promise<FpingRun>;
  /** Stops it early (every check waiting on it has given up). */
  kill(): void;
}

/** Starts `program` on the addresses; the promise never rejects. */
export const runFping = (program: string, args: FpingArgs): RunningFping => {
  const child = spawn(program, fpingArgs(args), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < STDERR_CAP) stderr += chunk;
  });
  const done = new Promise<FpingRun>((resolve) => {
    child.once('error', (e) => resolve({ replies: new Map(), failure: `fping could not run: ${e.message}` }));
    child.once('close', (code, signal) => {
      // 0: every address answered; 1: some did not; 2: an address was not found. 3 and 4 (bad
      // arguments, a failed system call such as no ICMP socket) and signals are fping's own failures.
      if (code === 0 || code === 1 || code === 2)
        return resolve({ replies: parseFpingOutput(stderr), failure: null });
      const why = stderr.split('\n').find((l) => l.trim() !== '') ?? '';
      resolve({
        replies: new Map(),
        failure: `fping failed (${signal ?? `exit ${code}`})${why ? `: ${why.slice(0, 200)}` : ''}`,
      });
    });
  });
  return {
    done,
    kill: () => {
      child.kill('SIGKILL');
    },
  };
};

/**
 * The fping this host can use for ping checks, or null: `program` (a path, or a name found on PATH)
 * must start and get an echo reply from 127.0.0.1, which needs a raw ICMP socket (root or
 * CAP_NET_RAW) or an unprivileged ICMP datagram socket (the group within net.ipv4.ping_group_range).
 */
export const findFping = async (
  program = 'fping',
): Promise<{ program: string } | { program: null; why: string }> => {
  const run = runFping(program, { count: 1, periodMs: 1000, addresses: ['127.0.0.1'] });
  const timer = setTimeout(run.kill, 5000);
  const r = await run.done;
  clearTimeout(timer);
  if (r.failure) return { program: null, why: r.failure };
  if (!r.replies.get('127.0.0.1')?.rtts.length) return { program: null, why: 'no echo reply from 127.0.0.1' };
  return { program };
};
