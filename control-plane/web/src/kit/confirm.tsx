import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorBox } from './error-box.js';

/** A confirmation in a modal <dialog> (focus stays inside; Escape cancels). */
export const Confirm = (props: {
  title: string;
  body: string;
  action: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="confirm-title" onClose={props.onClose}>
      <h2 id="confirm-title">{props.title}</h2>
      <p>{props.body}</p>
      <ErrorBox message={error} />
      <div class="dialog-actions">
        <button type="button" class="button" onClick={() => ref.current?.close()} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class="button danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await props.onConfirm();
              ref.current?.close();
            } catch (e) {
              setError(e instanceof Error ? e.message : 'That did not work.');
              setBusy(false);
            }
          }}
        >
          {props.action}
        </button>
      </div>
    </dialog>
  );
};
