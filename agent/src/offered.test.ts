import { createLogger } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import { offered } from './assemble.js';
import { loadAgentConfig } from './config.js';
import type { Probers } from './probers/index.js';

const probers: Probers = {
  types: ['http', 'api', 'tcp'],
  run: async () => ({ ok: true, error: null, response_time_ms: 1 }),
};

describe('the check types an agent offers', () => {
  it('unset: every type its host can run; set: those of them the operator lists, the rest named in one warning', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: { write: (l: string) => void lines.push(l) } });
    expect(offered(probers, undefined, logger).types).toEqual(['http', 'api', 'tcp']);
    const narrowed = offered(probers, ['tcp', 'ping'], logger);
    expect(narrowed.types).toEqual(['tcp']);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ check_types: ['ping'] });
    // It still runs what it is given (an older control plane may not place by type).
    expect(await narrowed.run({ monitor_type: 'http' } as never, {} as never)).toMatchObject({ ok: true });
  });

  it('LOOKOUT_AGENT_CHECK_TYPES: a list of known types, spaces allowed; an unknown name is refused', () => {
    const token = `lat.${'a'.repeat(30)}`;
    expect(
      loadAgentConfig({ LOOKOUT_AGENT_TOKEN: token, LOOKOUT_AGENT_CHECK_TYPES: 'http, ping' }).check_types,
    ).toEqual(['http', 'ping']);
    expect(loadAgentConfig({ LOOKOUT_AGENT_TOKEN: token }).check_types).toBeUndefined();
    expect(() =>
      loadAgentConfig({ LOOKOUT_AGENT_TOKEN: token, LOOKOUT_AGENT_CHECK_TYPES: 'http,gopher' }),
    ).toThrow(/LOOKOUT_AGENT_CHECK_TYPES: each must be one of/);
  });
});
