import { useEffect, useState } from 'preact/hooks';

/** A small client-side router: the address bar is the state; links push, Back and Forward pop. */
const listeners = new Set<() => void>();

export const navigate = (to: string, opts: { replace?: boolean } = {}) => {
  if (to === location.pathname + location.search) return;
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const fn of listeners) fn();
};

export const usePath = () => {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return path;
};

/** Follows a same-app link without a page load (modified clicks open a tab as usual). */
export const followLink = (e: MouseEvent) => {
  const a = e.currentTarget as HTMLAnchorElement;
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.pathname);
};
