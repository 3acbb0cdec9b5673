/** How a page says that something failed, or that it is still loading. */

/** An error in a box, read out at once; nothing when there is no message. `inset` sits inside a flush panel. */
export const ErrorBox = (props: { message?: string | null | undefined; inset?: boolean }) =>
  props.message ? (
    <p class={props.inset ? 'error-box inset' : 'error-box'} role="alert">
      {props.message}
    </p>
  ) : null;

/** The outcome of an action: a quiet status when it worked, an alert when it did not. */
export const Notice = (props: { notice: { ok: boolean; text: string } | null; inset?: boolean }) =>
  props.notice ? (
    <p
      class={`${props.notice.ok ? 'ok-box' : 'error-box'}${props.inset ? ' inset' : ''}`}
      role={props.notice.ok ? 'status' : 'alert'}
    >
      {props.notice.text}
    </p>
  ) : null;

/** What a page shows while its record loads: the error when it failed, "Loading…" until then. */
export const Loading = (props: { error?: string | null | undefined }) =>
  props.error ? (
    <ErrorBox message={props.error} />
  ) : (
    <p class="muted" aria-busy="true">
      Loading…
    </p>
  );
