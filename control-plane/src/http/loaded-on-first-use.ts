import type { Middleware } from 'koa';

/**
 * A middleware that is built on the first request it may serve: `load` (a dynamic import and the
 * factory it holds) runs once, and requests that arrive meanwhile wait for the same load. A failed load
 * fails its requests and is tried again by the next one. Requests it may not serve pass by without
 * loading anything, so a process that never gets one never pays for the code.
 */
export const loadedOnFirstUse = <S>(
  mayServe: (path: string) => boolean,
  load: () => Promise<Middleware<S>>,
): Middleware<S> => {
  let loading: Promise<Middleware<S>> | null = null;
  return async (ctx, next) => {
    if (!mayServe(ctx.path)) return next();
    loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    });
    const serve = await loading;
    return serve(ctx, next);
  };
};
