/** The confirmation of a bulk action on monitors: it names the count, and asks what the action needs. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../../src/api-client/client.js';
import { ApiError, api, client, type MonitorBulkBody } from '../api.js';
import { type Policy, routingApi } from '../api-routing.js';
import { ErrorBox } from '../kit/error-box.js';
import { readAll } from '../kit/paging.js';

export type BulkAction = MonitorBulkBody['action'];

const n = (count: number) => `${count.toLocaleString('en')} monitor${count === 1 ? '' : 's'}`;

/** Per action: the question, what follows, and what is said after. */
const WORDS: Record<BulkAction, { verb: string; body: string; done: string }> = {
  pause: {
    verb: 'Pause',
    body: 'Their checks stop until they are resumed; they raise no alerts meanwhile.',
    done: 'Paused',
  },
  resume: { verb: 'Resume', body: 'Each is checked at once, then on its schedule.', done: 'Resumed' },
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
  set_group: {
    verb: 'Set the group of',
    body: 'A monitor belongs to one group at most: this one replaces the one it had.',
    done: 'Set the group of',
  },
  add_tags: {
    verb: 'Add tags to',
    body: 'A tag is key or key:value, of lower-case letters, digits, - and _; a monitor carries at most 20.',
    done: 'Added tags to',
  },
  remove_tags: {
    verb: 'Remove tags from',
    body: 'Monitors without these tags are left as they are.',
    done: 'Removed tags from',
  },
};

/** The confirming button, where not "<Verb> N monitors". */
const BUTTON: Partial<Record<BulkAction, string>> = {
  set_policy: 'Set policy',
  set_group: 'Set group',
  add_tags: 'Add tags',
  remove_tags: 'Remove tags',
};

interface Choice {
  id: string;
  name: string;
}

/** What an action chooses from: the workspace's policies or groups (read whole: they are few). */
const choicesOf = (action: BulkAction): Promise<Choice[]> | null => {
  if (action === 'set_policy')
    return readAll((cursor) => routingApi.listPolicies(cursor)).then((ps: Policy[]) =>
      ps.filter((p) => !p.is_default),
    );
  if (action === 'set_group')
    return readAll((cursor) => ok(client.GET('/groups', { params: { query: { limit: 100, cursor } } })));
  return null;
};

/** An API error as one line, with what it said of each field (a bad tag named as typed). */
const sentence = (e: unknown, tags: string[]) => {
  if (!(e instanceof ApiError) || e.details.length === 0)
    return e instanceof Error ? e.message : 'That did not work.';
  const what = (field: string) => {
    const i = /^tags\[(\d+)\]$/.exec(field)?.[1];
    return i === undefined ? field : `“${tags[Number(i)]}”`;
  };
  return `${e.message} ${e.details.map((d) => `${what(d.field)}: ${d.message}`).join('; ')}`;
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
  const [choices, setChoices] = useState<Choice[] | null>(null);
  const [choice, setChoice] = useState('');
  const [tags, setTags] = useState('');
  const { action } = props;
  const words = WORDS[action];
  const needsChoice = action === 'set_policy' || action === 'set_group';
  const needsTags = action === 'add_tags' || action === 'remove_tags';
  useEffect(() => {
    ref.current?.showModal();
    choicesOf(action)?.then(setChoices, (e: Error) => setError(e.message));
  }, []);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    const list = tags.split(/[\s,]+/).filter(Boolean);
    try {
      const r = await api.bulkMonitors({
        ...props.body,
        action,
        ...(action === 'set_policy' ? { escalation_policy_id: choice || null } : {}),
        ...(action === 'set_group' ? { group_id: choice || null } : {}),
        ...(needsTags ? { tags: list } : {}),
      });
      const adjusted = r.warnings?.map((w) => ` ${w.message}`).join('') ?? '';
      props.onDone(`${words.done} ${n(r.affected)}.${adjusted}`);
      ref.current?.close();
    } catch (e) {
      setError(sentence(e, list));
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} class="dialog" aria-labelledby="bulk-title" onClose={props.onClose}>
      <h2 id="bulk-title">
        {words.verb} {n(props.count)}?
      </h2>
      <p>{words.body}</p>
      {needsChoice && (
        <div class="field">
          <label for="bulk-choice">{action === 'set_group' ? 'Group' : 'Escalation policy'}</label>
          <select
            id="bulk-choice"
            value={choice}
            disabled={!choices}
            onChange={(e) => setChoice(e.currentTarget.value)}
          >
            <option value="">{action === 'set_group' ? 'No group' : "The workspace's default"}</option>
            {(choices ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {needsTags && (
        <div class="field">
          <label for="bulk-tags">Tags</label>
          <input
            id="bulk-tags"
            value={tags}
            placeholder="env:prod team-db"
            aria-describedby="bulk-tags-hint"
            onInput={(e) => setTags(e.currentTarget.value)}
          />
          <p id="bulk-tags-hint" class="muted small">
            Separated by spaces or commas.
          </p>
        </div>
      )}
      <ErrorBox message={error} />
      <div class="dialog-actions">
        <button type="button" class="button" onClick={() => ref.current?.close()} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class={action === 'delete' ? 'button danger' : 'button primary'}
          disabled={busy || (needsChoice && !choices) || (needsTags && !tags.trim())}
          onClick={confirm}
        >
          {BUTTON[action] ?? `${words.verb} ${n(props.count)}`}
        </button>
      </div>
    </dialog>
  );
};
