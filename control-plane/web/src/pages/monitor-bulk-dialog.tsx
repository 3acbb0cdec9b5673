/** The confirmation of a bulk action on monitors: it names the count, and asks what the action needs. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type MonitorBulkBody } from '../api.js';
import { type Policy, routingApi } from '../api-routing.js';
import { ErrorBox } from '../kit/error-box.js';
import { readAll } from '../kit/paging.js';

export type BulkAction = MonitorBulkBody['action'];

const n = (count: number) => `${count.toLocaleString('en')} monitor${count === 1 ? '' : 's'}`;

/** Per action: the question, what follows, the button, and what is said after. */
const WORDS: Record<BulkAction, { verb: string; body: string; done: string }> = {
  pause: {
    verb: 'Pause',
    body: 'Their checks stop until they are resumed; they raise no alerts meanwhile.',
    done: 'Paused',
  },
  resume: {
    verb: 'Resume',
    body: 'Each is checked at once, then on its schedule.',
    done: 'Resumed',
  },
  delete: {
    verb: 'Delete',
    body: 'Their checks, history and settings go with them. This cannot be undone.',
    done: 'Deleted',
  },
  set_policy: {
    verb: 'Set the escalation policy of',
    body: 'Their new alerts follow this policy.',
    done: 'Set the escalation policy of',
  },
};

export const BulkDialog = (props: {
  action: BulkAction;
  count: number;
  body: Omit<MonitorBulkBody, 'action'>;
  onClose: () => void;
  onDone: (text: string) => void;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [policies, setPolicies] = useState<Policy[] | null>(null);
  const [policy, setPolicy] = useState('');
  const words = WORDS[props.action];
  useEffect(() => {
    ref.current?.showModal();
    if (props.action === 'set_policy')
      readAll((cursor) => routingApi.listPolicies(cursor)).then(setPolicies, (e: Error) =>
        setError(e.message),
      );
  }, []);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.bulkMonitors({
        ...props.body,
        action: props.action,
        ...(props.action === 'set_policy' ? { escalation_policy_id: policy || null } : {}),
      });
      const adjusted = r.warnings?.map((w) => ` ${w.message}`).join('') ?? '';
      props.onDone(`${words.done} ${n(r.affected)}.${adjusted}`);
      ref.current?.close();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} class="dialog" aria-labelledby="bulk-title" onClose={props.onClose}>
      <h2 id="bulk-title">
        {words.verb} {n(props.count)}?
      </h2>
      <p>{words.body}</p>
      {props.action === 'set_policy' && (
        <div class="field">
          <label for="bulk-policy">Escalation policy</label>
          <select
            id="bulk-policy"
            value={policy}
            disabled={!policies}
            onChange={(e) => setPolicy(e.currentTarget.value)}
          >
            <option value="">The workspace's default</option>
            {(policies ?? [])
              .filter((p) => !p.is_default)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </select>
        </div>
      )}
      <ErrorBox message={error} />
      <div class="dialog-actions">
        <button type="button" class="button" onClick={() => ref.current?.close()} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class={props.action === 'delete' ? 'button danger' : 'button primary'}
          disabled={busy || (props.action === 'set_policy' && !policies)}
          onClick={confirm}
        >
          {props.action === 'set_policy' ? 'Set policy' : `${words.verb} ${n(props.count)}`}
        </button>
      </div>
    </dialog>
  );
};
