import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type Heartbeat, routingApi } from '../../api-routing.js';
import { duration, durationMs, formatDateTime, fromNow } from '../../format.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox, Loading } from '../../kit/error-box.js';
import { LabelsLine } from '../../kit/label-fields.js';
import { ListBody, ShowMore, useList } from '../../kit/paging.js';
import { usePoll } from '../../poll.js';
import { followLink, navigate } from '../../router.js';
import { CopyValue } from '../../routing-ui.js';
import { DependenciesPanel } from '../dependencies-panel.js';
import { HeartbeatForm } from './heartbeat-form.js';
import { LastPing, StateBadge } from './heartbeat-state.js';
import { PingTable } from './ping-log.js';
import { PingSnippets } from './ping-snippets.js';

/**
 * The slug form of a heartbeat's ping URL, for admins (it holds the workspace's ping key, which only
 * they see); null without a slug, for others, or until read.
 */
const useSlugUrl = (slug: string | null, admin: boolean) => {
  const [template, setTemplate] = useState<string | null>(null);
  useEffect(() => {
    if (!slug || !admin) return;
    routingApi.getPingKey().then(
      (k) => setTemplate(k.ping_url_template),
      () => setTemplate(null),
    );
  }, [slug, admin]);
  return slug && admin && template ? template.replace('{slug}', slug) : null;
};

/** `/heartbeats/{uuid}`: its state, ping URL and snippets, the ping log; edit, pause, delete. */
export const HeartbeatPage = (props: { me: Me; id: string }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [h, setH] = useState<Heartbeat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const slugUrl = useSlugUrl(h?.slug ?? null, props.me.user.role === 'admin');

  const readHeartbeat = () =>
    routingApi.getHeartbeat(props.id).then(
      (hb) => {
        setH(hb);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  // Live while not editing; the ping log until older pings are shown, then it stands still.
  usePoll(readHeartbeat, [props.id], !editing);
  const {
    items: pings,
    next: older,
    error: pingsError,
    more: showOlder,
    reload: reloadPings,
  } = useList((cursor) => routingApi.listPings(props.id, cursor), {
    deps: [props.id],
    poll: !editing && 'until-more',
  });
  const load = () => Promise.all([readHeartbeat(), reloadPings()]);

  const setPaused = async (paused: boolean) => {
    setBusy(true);
    try {
      setH(await routingApi.updateHeartbeat(props.id, { paused }));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };

  if (!h)
    return (
      <section class="page">
        <p>
          <a href="/heartbeats" onClick={followLink}>
            ← Heartbeats
          </a>
        </p>
        <Loading error={error} />
      </section>
    );

  return (
    <section class="page">
      <p class="crumb">
        <a href="/heartbeats" onClick={followLink}>
          ← Heartbeats
        </a>
      </p>
      <div class="page-head">
        <h1>{h.display_name}</h1>
        <div class="actions-row">
          <button type="button" class="button" onClick={() => void load()}>
            Refresh
          </button>
          {canWrite && !editing && (
            <>
              <button type="button" class="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" class="button" disabled={busy} onClick={() => setPaused(!h.paused)}>
                {h.paused ? 'Resume' : 'Pause'}
              </button>
              <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      <LabelsLine group_id={h.group_id} tags={h.tags} severity={h.severity} />
      <ErrorBox message={error ?? pingsError} />
      {h.pinging_too_often && (
        <p class="notice" role="status">
          This job pings far more often than its schedule expects. It is not alerted on: check its crontab or
          schedule.
        </p>
      )}
      {editing ? (
        <section class="panel" aria-labelledby="edit-hb-title">
          <h2 id="edit-hb-title">Edit heartbeat</h2>
          <HeartbeatForm
            initial={h}
            submit="Save"
            onCancel={() => setEditing(false)}
            onSubmit={async (body) => {
              setH(await routingApi.updateHeartbeat(props.id, body));
              setEditing(false);
            }}
          />
        </section>
      ) : (
        <dl class="facts">
          <div>
            <dt>State</dt>
            <dd role="status" aria-label="State">
              <StateBadge state={h.state} />
              {h.state === 'down' && h.alert_id && (
                <>
                  {' '}
                  <a class="small" href={`/alerts/${h.alert_id}`} onClick={followLink}>
                    View alert
                  </a>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Last ping</dt>
            <dd>
              <LastPing h={h} />
            </dd>
          </div>
          <div>
            <dt>Schedule</dt>
            <dd>
              {h.schedule_text}
              {h.schedule && (
                <>
                  {' '}
                  <code class="small">{h.schedule}</code>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Next expected</dt>
            <dd>
              {h.next_expected_at ? (
                <span title={formatDateTime(h.next_expected_at)}>
                  {formatDateTime(h.next_expected_at)} ({fromNow(h.next_expected_at)})
                </span>
              ) : (
                <span class="muted">{h.paused ? 'Paused' : 'After the first ping'}</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Grace</dt>
            <dd>{duration(h.grace_seconds)}</dd>
          </div>
          <div>
            <dt>Last run took</dt>
            <dd>
              {h.last_duration_ms === null ? (
                <span class="muted">Not measured (send /start when the run begins)</span>
              ) : (
                durationMs(h.last_duration_ms)
              )}
            </dd>
          </div>
          {h.slug && (
            <div>
              <dt>Slug</dt>
              <dd>
                <code>{h.slug}</code>
              </dd>
            </div>
          )}
          {h.started_at && (
            <div>
              <dt>Running since</dt>
              <dd title={formatDateTime(h.started_at)}>{fromNow(h.started_at)}</dd>
            </div>
          )}
        </dl>
      )}

      <DependenciesPanel
        kind="heartbeat"
        id={h.id}
        dependencies={h.dependencies ?? []}
        suppressedBy={h.suppressed_by ?? null}
      />

      <section class="panel" aria-labelledby="ping-url-title">
        <h2 id="ping-url-title">Ping URL</h2>
        <CopyValue label="Ping URL" copyLabel="Copy ping URL" value={h.ping_url} />
        {slugUrl && (
          <CopyValue
            label="Slug URL"
            copyLabel="Copy slug URL"
            value={slugUrl}
            hint="By slug, with the workspace’s ping key (shown to admins only): /start, /fail and /{exit status} work after it too."
          />
        )}
      </section>

      <section class="panel flush" aria-labelledby="ping-log-title">
        <div class="panel-head">
          <h2 id="ping-log-title">Ping log</h2>
          <span class="muted">newest first</span>
        </div>
        <ListBody items={pings} empty="No pings yet.">
          {(pings) => <PingTable pings={pings} />}
        </ListBody>
        <ShowMore next={older} onMore={showOlder} label="Show older pings" />
      </section>
      <PingSnippets h={h} slugUrl={slugUrl} />

      {confirming && (
        <Confirm
          title={`Delete “${h.display_name}”?`}
          body="Its ping URL stops working at once and its ping log is deleted. Jobs still pinging it get 404."
          action="Delete"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await routingApi.deleteHeartbeat(props.id);
            navigate('/heartbeats');
          }}
        />
      )}
    </section>
  );
};
