import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** One page of an export rendered: its text, and where the next page starts (null: the last). */
export interface RenderedPage<C> {
  text: string;
  next: C | null;
}

/** The bytes an export body holds before it stops reading pages (one page may go past it). */
const BUFFER_BYTES = 64 * 1024;

/**
 * An export's body, read from the store a page at a time with backpressure: the next page is read only
 * when the stream is asked for more (its buffer below BUFFER_BYTES, so the socket drained what was
 * sent), each in a later turn of the event loop than the one before (a run of pages with nothing
 * matching never holds the loop), and none once the stream is destroyed (the client went away: Koa
 * destroys the body when the response closes). `head` goes first (a CSV header). A page that fails
 * destroys the body with its error (the response is cut, never ended as if complete).
 */
export const pagedBody = <C>(
  head: string,
  readPage: (after: C | null) => Promise<RenderedPage<C>>,
): Readable => {
  let cursor: C | null = null;
  let pumping = false;
  const pump = async () => {
    try {
      for (;;) {
        const page = await readPage(cursor);
        if (body.destroyed) return;
        cursor = page.next;
        const more = page.text === '' || body.push(page.text);
        if (page.next === null) {
          body.push(null);
          return;
        }
        if (!more) {
          pumping = false;
          return;
        }
        await nextTurn();
        if (body.destroyed) return;
      }
    } catch (err) {
      body.destroy(err as Error);
    }
  };
  const body = new Readable({
    highWaterMark: BUFFER_BYTES,
    read() {
      if (pumping) return;
      pumping = true;
      void pump();
    },
  });
  if (head !== '') body.push(head);
  return body;
};
