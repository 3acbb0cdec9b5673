import { type Bootstrap, loadBootstrap } from './domain-prober.js';
import { RDAP_BOOTSTRAP } from './rdap-bootstrap.js';

/**
 * The RDAP bootstrap data domain checks use: the subset shipped with Lookout until the first refresh
 * from `url` (IANA's dns.json), then the newest data that loaded. A failed refresh keeps what there is.
 */
export const createRdapBootstrap = (opts: {
  url: string | null;
  load?: (url: string) => Promise<Bootstrap>;
  onRefreshed?: (services: number) => void;
  onError?: (err: unknown) => void;
}) => {
  const load = opts.load ?? ((url: string) => loadBootstrap(url));
  let current: Bootstrap = RDAP_BOOTSTRAP;
  let timers: NodeJS.Timeout[] = [];
  const refresh = async (): Promise<boolean> => {
    if (!opts.url) return false;
    try {
      const next = await load(opts.url);
      if (next.services.length === 0) throw new Error(`the bootstrap data at ${opts.url} lists no services`);
      current = next;
      opts.onRefreshed?.(next.services.length);
      return true;
    } catch (err) {
      opts.onError?.(err);
      return false;
    }
  };
  return {
    current: () => current,
    refresh,
    /** First refresh after `firstMs`, then every `everyMs`. */
    start(firstMs: number, everyMs: number) {
      if (!opts.url || everyMs <= 0) return;
      const first = setTimeout(() => {
        void refresh();
        const t = setInterval(() => void refresh(), everyMs);
        t.unref();
        timers.push(t);
      }, firstMs);
      first.unref();
      timers.push(first);
    },
    stop() {
      for (const t of timers) clearTimeout(t);
      timers = [];
    },
  };
};
