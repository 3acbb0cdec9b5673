import { useEffect, useState } from 'preact/hooks';
import { api, type Member } from '../../api.js';
import { type ReportSchedule, reportsApi, type SendOutcome } from '../../api-reports.js';
import { formatDateTime } from '../../format.js';
import { ErrorBox } from '../../kit/error-box.js';
import { type Problems, problemsOf, TextField } from '../../kit/field.js';
import { readAll } from '../../kit/paging.js';
import { ScopeFields } from './scope-fields.js';

/** The workspace's users, every page (as the Users page reads them). */
const useMembers = () => {
  const [members, setMembers] = useState<Member[] | null>(null);
  useEffect(() => {
    readAll((cursor) => api.listUsers(cursor))
      .then(setMembers)
      .catch(() => setMembers([]));
  }, []);
  return members;
};

/** What Send now did: the month, who got it, who did not and why. */
const sentText = (o: SendOutcome) => {
  const sent = o.recipients.filter((r) => r.ok).map((r) => r.email);
  const failed = o.recipients.filter((r) => !r.ok).map((r) => `${r.email} (${r.error ?? 'not sent'})`);
  return [
    sent.length ? `The report for ${monthText(o.month)} was sent to ${sent.join(', ')}.` : '',
    failed.length ? `Not sent to ${failed.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
};

const monthFmt = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** `2026-11` as "November 2026". */
const monthText = (m: string) => monthFmt.format(new Date(`${m}-01T00:00:00Z`));

/**
 * "Monthly report by mail" (admins): whether last month's report is mailed on the 1st, to whom (users
 * of the workspace, chosen by email), of what scope and SLO. Save writes it (`PUT /reports/schedule`);
 * Send now mails last month's report at once, to try it.
 */
export const ScheduleSection = () => {
  const members = useMembers();
  const [draft, setDraft] = useState<ReportSchedule | null>(null);
  const [slo, setSlo] = useState('');
  const [filter, setFilter] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');

  useEffect(() => {
    reportsApi.schedule().then(
      (s) => {
        setDraft(s);
        setSlo(String(s.slo));
      },
      (e) => setLoadError(problemsOf(e).form ?? 'The schedule could not be read.'),
    );
  }, []);

  if (loadError) return <ErrorBox message={loadError} />;
  if (!draft || !members) return <p class="muted">Loading…</p>;
  const chosen = new Set(draft.recipient_user_ids);
  const recipientsProblem = Object.entries(problems).find(([k]) => k.startsWith('recipient_user_ids'))?.[1];
  const shown = members.filter(
    (m) => chosen.has(m.id) || !filter.trim() || m.email.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const toggle = (id: string, on: boolean) =>
    setDraft({
      ...draft,
      recipient_user_ids: on
        ? [...draft.recipient_user_ids, id]
        : draft.recipient_user_ids.filter((x) => x !== id),
    });
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaid('');
    try {
      // A number as typed is sent as one; anything else as typed, for the API to name.
      const n = Number(slo);
      const typed = slo.trim() !== '' && Number.isFinite(n) ? n : (slo as unknown as number);
      const { enabled, recipient_user_ids, scope } = draft;
      const saved = await reportsApi.saveSchedule({ enabled, recipient_user_ids, scope, slo: typed });
      setDraft(saved);
      setSlo(String(saved.slo));
      setProblems({});
      setSaid('Saved.');
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const sendNow = async () => {
    setBusy(true);
    setSaid('');
    try {
      setProblems({});
      setSaid(sentText(await reportsApi.sendNow()));
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="schedule-form" aria-label="Monthly report by mail" noValidate onSubmit={save}>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
        />
        Mail last month’s report at the start of each month
      </label>
      <fieldset class="recipients" aria-describedby={recipientsProblem ? 'recipients-problem' : undefined}>
        <legend>Recipients</legend>
        <input
          type="search"
          aria-label="Find a user"
          placeholder="Email"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
        <ul class="recipient-list">
          {shown.map((m) => (
            <li key={m.id}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={chosen.has(m.id)}
                  onChange={(e) => toggle(m.id, e.currentTarget.checked)}
                />
                {m.email}
                {m.status === 'invited' && <span class="muted"> (invited)</span>}
              </label>
            </li>
          ))}
        </ul>
        <span class="hint tight">{chosen.size} chosen</span>
        {recipientsProblem && (
          <span class="field-problem" id="recipients-problem">
            {recipientsProblem}
          </span>
        )}
      </fieldset>
      <div class="schedule-scope">
        <ScopeFields
          prefix="mail"
          type={draft.scope.type}
          id={draft.scope.id ?? ''}
          problem={problems['scope.id'] ?? problems.scope}
          onChange={(type, id) =>
            setDraft({ ...draft, scope: { type, id: type === 'workspace' ? null : id } })
          }
        />
        <TextField
          id="mail-slo"
          label="SLO (%)"
          inputMode="decimal"
          problem={problems.slo}
          value={slo}
          onValue={setSlo}
        />
      </div>
      <ErrorBox message={problems.form ?? null} />
      {draft.next_report_month && draft.next_report_at && (
        <p class="muted next-report">
          Next: the report for {monthText(draft.next_report_month)}, mailed from{' '}
          {formatDateTime(draft.next_report_at)}.
        </p>
      )}
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          Save
        </button>
        <button type="button" class="button" disabled={busy} onClick={() => void sendNow()}>
          Send now
        </button>
        <span role="status" class="muted">
          {said}
        </span>
      </div>
    </form>
  );
};
