/** Polls `probe` until it returns a value that `done` accepts, or fails after `timeoutMs` with the last value. */
export const waitFor = async <T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  { timeoutMs = 20_000, everyMs = 100, what = 'condition' } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, everyMs));
    last = await probe();
  }
  return last;
};
