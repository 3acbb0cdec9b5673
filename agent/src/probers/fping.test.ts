import { describe, expect, it } from 'vitest';
import { fpingArgs, parseFpingOutput } from './fping.js';

describe('fping output', () => {
  it('reads -C summaries and ICMP errors per address; lost echoes are left out', () => {
    const out = parseFpingOutput(
      [
        'ICMP Host Unreachable from 198.18.4.1 for ICMP Echo sent to 198.18.4.3',
        'ICMP Host Unreachable from 198.18.4.1 for ICMP Echo sent to 198.18.4.3',
        '127.0.0.1   : 0.055 0.045 -',
        '::1         : 0.10 0.07 0.21',
        '198.18.4.3  : - - -',
        'fping: something else entirely',
        '',
      ].join('\n'),
    );
    expect(out.get('127.0.0.1')).toEqual({ rtts: [0.055, 0.045], icmpError: null });
    expect(out.get('::1')).toEqual({ rtts: [0.1, 0.07, 0.21], icmpError: null });
    expect(out.get('198.18.4.3')).toEqual({ rtts: [], icmpError: 'ICMP Host Unreachable from 198.18.4.1' });
    expect(out.size).toBe(3);
  });

  it('ends its options before the addresses, so none can read as an option', () => {
    const args = fpingArgs({ count: 3, periodMs: 245, addresses: ['127.0.0.1', '::1'] });
    expect(args).toEqual([
      '-C',
      '3',
      '-p',
      '245',
      '-t',
      '245',
      '-i',
      '1',
      '-r',
      '0',
      '--',
      '127.0.0.1',
      '::1',
    ]);
  });
});
