import type { Clock } from '@lookout/shared';
import type { Config } from '../../control-plane/src/config.js';
import { type Harness, startHarness } from './harness.js';
import { startReceiver, startSmtp } from './receivers.js';

/**
 * A control plane that notifies for real: a manual clock, its escalation scheduler polling every 20 ms,
 * retries 5 ms apart, email through a real SMTP server and webhooks to real HTTP receivers, all on
 * loopback ports. The receivers sign-check against the control plane's clock. `opts` may replace the
 * clock (real agents run on the system clock) and add configuration.
 */
export const startRoutingRig = async (opts: { clock?: Clock; config?: Partial<Config> } = {}) => {
  const smtp = await startSmtp();
  let h: Harness | undefined;
  const rx = await startReceiver({ nowSeconds: () => Math.floor(h!.clock.now().getTime() / 1000) });
  h = await startHarness(
    {
      escalation_poll_ms: 20,
      notify_retry_base_ms: 5,
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_from: 'Lookout <alerts@lookout.test>',
      ...opts.config,
    },
    opts.clock ? { clock: opts.clock } : {},
  );
  const harness = h;
  return {
    h: harness,
    rx,
    smtp,
    async close() {
      await harness.close();
      await rx.close();
      await smtp.close();
    },
  };
};
