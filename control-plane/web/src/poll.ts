import { useEffect, useRef } from 'preact/hooks';

/** How often a live page re-reads the API while the tab is visible (issue 13 pins: short polling). */
export const POLL_MS = 5000;

/**
 * Runs `load` now, then every POLL_MS while the document is visible (a hidden tab asks nothing; it
 * reads at once when shown again). One read at a time; restarts when `deps` change; idle while `on` is false.
 */
export const usePoll = (load: () => Promise<unknown>, deps: unknown[], on = true) => {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    if (!on) return;
    let stopped = false;
    let running = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      clearTimeout(timer);
      if (stopped || running) return;
      if (document.visibilityState === 'visible') {
        running = true;
        try {
          await latest.current();
        } catch {
          // The page shows its own error; the next tick tries again.
        } finally {
          running = false;
        }
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    const shown = () => {
      if (document.visibilityState === 'visible') void tick();
    };
    void tick();
    document.addEventListener('visibilitychange', shown);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [...deps, on]);
};

let flash: string | null = null;
/** A message for the next page to show once (after a create, the detail page says what the API warned). */
export const setFlash = (text: string | null) => {
  flash = text;
};
export const takeFlash = () => {
  const f = flash;
  flash = null;
  return f;
};
