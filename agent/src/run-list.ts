/**
 * Scheduled runs waiting for a place in the check queue (check-runner.ts), first in first out: three
 * parallel arrays read from a moving head, so a waiting run costs a few words, not an object. The
 * consumed front is dropped once it is most of the arrays.
 */
export const createRunList = () => {
  let ids: string[] = [];
  let slots: number[] = [];
  let dones: (() => void)[] = [];
  let head = 0;
  return {
    push(id: string, scheduledAt: number, done: () => void) {
      ids.push(id);
      slots.push(scheduledAt);
      dones.push(done);
    },
    /** Hands the oldest run to `to` and forgets it. */
    shift(to: (id: string, scheduledAt: number, done: () => void) => void) {
      const i = head++;
      const id = ids[i]!;
      const at = slots[i]!;
      const done = dones[i]!;
      if (head >= 1024 && head * 2 >= ids.length) {
        ids = ids.slice(head);
        slots = slots.slice(head);
        dones = dones.slice(head);
        head = 0;
      }
      to(id, at, done);
    },
    /** Drops every waiting run, telling each it is over. */
    clear() {
      const left = dones.slice(head);
      ids = [];
      slots = [];
      dones = [];
      head = 0;
      for (const done of left) done();
    },
    get size() {
      return ids.length - head;
    },
  };
};
