/**
 * Scheduled runs waiting for a place in the check queue (check-runner.ts), first in first out: two
 * parallel arrays read from a moving head, so a waiting run costs a few words, not an object. The
 * consumed front is dropped once it is most of the arrays.
 */
export const createRunList = <R extends { done(): void }>() => {
  let runs: R[] = [];
  let slots: number[] = [];
  let head = 0;
  return {
    push(run: R, scheduledAt: number) {
      runs.push(run);
      slots.push(scheduledAt);
    },
    /** Hands the oldest run to `to` and forgets it. */
    shift(to: (run: R, scheduledAt: number) => void) {
      const i = head++;
      const run = runs[i]!;
      const at = slots[i]!;
      if (head >= 1024 && head * 2 >= runs.length) {
        runs = runs.slice(head);
        slots = slots.slice(head);
        head = 0;
      }
      to(run, at);
    },
    /** Drops every waiting run, telling each it is over. */
    clear() {
      const left = runs.slice(head);
      runs = [];
      slots = [];
      head = 0;
      for (const run of left) run.done();
    },
    get size() {
      return runs.length - head;
    },
  };
};
