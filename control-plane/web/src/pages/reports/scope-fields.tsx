import { useEffect, useState } from 'preact/hooks';
import { type StatusPage, statusApi } from '../../api-status.js';
import { describedBy, Field, FieldNotes } from '../../kit/field.js';
import { RecordPicker } from '../../kit/record-picker.js';
import { SCOPES, type ScopeType } from './report-query.js';

/** The first page of the workspace's status pages (a workspace has a handful), read once per picker. */
const useStatusPages = (enabled: boolean) => {
  const [pages, setPages] = useState<StatusPage[] | null>(null);
  useEffect(() => {
    if (enabled && pages === null)
      statusApi.list().then(
        (p) => setPages(p.data),
        () => setPages([]),
      );
  }, [enabled]);
  return pages ?? [];
};

/**
 * What a report covers: "Report on" (Workspace, Monitor, Group, Tag, Status page) and, but for the
 * workspace, which one (a monitor or group picker, a tag typed, a status page chosen). `prefix` keeps
 * the ids of two pickers on one page apart. A tag is committed when the field is left or Enter pressed.
 */
export const ScopeFields = (props: {
  prefix: string;
  type: ScopeType;
  id: string;
  problem?: string | undefined;
  onChange: (type: ScopeType, id: string) => void;
}) => {
  const pages = useStatusPages(props.type === 'status_page');
  const [tag, setTag] = useState(props.type === 'tag' ? props.id : '');
  useEffect(() => {
    if (props.type === 'tag') setTag(props.id);
  }, [props.type, props.id]);
  const pid = `${props.prefix}-scope-id`;
  return (
    <>
      <Field id={`${props.prefix}-scope`} label="Report on">
        {(a) => (
          <select
            {...a}
            value={props.type}
            onChange={(e) => props.onChange(e.currentTarget.value as ScopeType, '')}
          >
            {SCOPES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {(props.type === 'monitor' || props.type === 'group') && (
        <RecordPicker
          id={pid}
          kind={props.type}
          label={props.type === 'monitor' ? 'Monitor' : 'Group'}
          value={props.id}
          problem={props.problem}
          onChange={(id) => props.onChange(props.type, id)}
        />
      )}
      {props.type === 'tag' && (
        <div class="field">
          <label for={pid}>Tag</label>
          <input
            id={pid}
            type="text"
            maxLength={100}
            autocomplete="off"
            spellcheck={false}
            value={tag}
            onInput={(e) => setTag(e.currentTarget.value)}
            onChange={(e) => props.onChange('tag', e.currentTarget.value.trim())}
            onKeyDown={(e) => {
              if (e.key === 'Enter') props.onChange('tag', e.currentTarget.value.trim());
            }}
            {...describedBy(pid, props.problem, 'Monitors carrying this tag')}
          />
          <FieldNotes id={pid} problem={props.problem} hint="Monitors carrying this tag" />
        </div>
      )}
      {props.type === 'status_page' && (
        <Field id={pid} label="Status page" problem={props.problem}>
          {(a) => (
            <select
              {...a}
              value={props.id}
              onChange={(e) => props.onChange('status_page', e.currentTarget.value)}
            >
              <option value="">Choose…</option>
              {props.id && !pages.some((p) => p.id === props.id) && (
                <option value={props.id}>The chosen status page</option>
              )}
              {pages.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </>
  );
};
