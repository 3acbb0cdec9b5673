import { useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type StatusPage, statusApi } from '../../api-status.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox, Loading } from '../../kit/error-box.js';
import { Empty, ListBody, ShowMore, useList } from '../../kit/paging.js';
import { RecordName } from '../../kit/record-picker.js';
import { usePoll } from '../../poll.js';
import { followLink, navigate } from '../../router.js';
import { DomainBadge } from './custom-domain-proof.js';
import { IncidentCard, ReportIncidentForm } from './incidents.js';
import { ComponentBadge, visibilityLabel } from './status-words.js';

/**
 * `/status-pages/{id}`: the page's settings and components with their live status, its incidents
 * (report, update, resolve, publish or discard drafts, post-mortems), "Open public page". Viewers read it all.
 */
export const StatusPageScreen = (props: { me: Me; id: string }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [page, setPage] = useState<StatusPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reporting, setReporting] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const readPage = () =>
    statusApi.get(props.id).then(
      (p) => {
        setPage(p);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  usePoll(readPage, [props.id]);
  // The incidents are live until older ones are shown; then they stand still.
  const {
    items: incidents,
    next: older,
    error: incidentsError,
    more: showOlder,
    reload: reloadIncidents,
  } = useList((cursor) => statusApi.listIncidents(props.id, cursor), {
    deps: [props.id],
    poll: 'until-more',
  });
  /** After a change: the page and the newest incidents again. */
  const load = () => Promise.all([readPage(), reloadIncidents()]);

  if (!page)
    return (
      <section class="page">
        <p class="crumb">
          <a href="/status-pages" onClick={followLink}>
            ← Status pages
          </a>
        </p>
        <Loading error={error} />
      </section>
    );

  const shows = (c: StatusPage['components'][number]) =>
    c.monitor_id ? (
      <>
        Monitor: <RecordName kind="monitor" id={c.monitor_id} />
      </>
    ) : c.heartbeat_id ? (
      <>
        Heartbeat: <RecordName kind="heartbeat" id={c.heartbeat_id} />
      </>
    ) : c.group_id ? (
      <>
        Group: <RecordName kind="group" id={c.group_id} missing="(deleted)" />
      </>
    ) : (
      'Set by hand'
    );

  return (
    <section class="page">
      <p class="crumb">
        <a href="/status-pages" onClick={followLink}>
          ← Status pages
        </a>
      </p>
      <div class="page-head">
        <h1>{page.name}</h1>
        <div class="actions-row">
          <a class="button" href={page.public_url} target="_blank" rel="noopener">
            Open public page
          </a>
          {canWrite && (
            <>
              <a class="button" href={`/status-pages/${page.id}/edit`} onClick={followLink}>
                Edit
              </a>
              <button type="button" class="button danger-outline" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      <ErrorBox message={error ?? incidentsError} />
      <dl class="facts">
        <div>
          <dt>Address</dt>
          <dd>
            <code>/status/{page.slug}</code>
          </dd>
        </div>
        <div>
          <dt>Custom domain</dt>
          <dd>
            {page.custom_domain ?? <span class="muted">None</span>}{' '}
            {page.custom_domain_status && <DomainBadge status={page.custom_domain_status} />}
          </dd>
        </div>
        <div>
          <dt>Visibility</dt>
          <dd>{visibilityLabel(page)}</dd>
        </div>
        <div>
          <dt>Accent colour</dt>
          <dd>
            {page.accent_color ? (
              <>
                <span class="swatch" style={{ background: page.accent_color }} aria-hidden="true" />{' '}
                <code>{page.accent_color}</code>
              </>
            ) : (
              <span class="muted">Default</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Automatic drafts</dt>
          <dd>{page.auto_draft_incidents ? 'On' : 'Off'}</dd>
        </div>
      </dl>

      <section class="panel flush" aria-labelledby="sp-components-title">
        <div class="panel-head">
          <h2 id="sp-components-title">Components</h2>
          <span class="muted">live, in the page’s order</span>
        </div>
        <ListBody items={page.components} empty="No components yet: edit the page to add some.">
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Group</th>
                  <th scope="col">Shows</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr key={c.id}>
                    <th scope="row" class="key-name">
                      {c.name}
                    </th>
                    <td data-label="Group">{c.group ?? <span class="muted">—</span>}</td>
                    <td data-label="Shows">{shows(c)}</td>
                    <td data-label="Status">
                      <ComponentBadge status={c.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
      </section>

      <section class="panel" aria-labelledby="sp-incidents-title">
        <div class="panel-head bare">
          <h2 id="sp-incidents-title">Incidents</h2>
          {canWrite && !reporting && (
            <button type="button" class="button primary" onClick={() => setReporting(true)}>
              Report incident
            </button>
          )}
        </div>
        {canWrite && reporting && (
          <ReportIncidentForm
            page={page}
            onCancel={() => setReporting(false)}
            onDone={() => {
              setReporting(false);
              void load();
            }}
          />
        )}
        {incidents?.length === 0 && <Empty>No incidents yet.</Empty>}
        {incidents && incidents.length > 0 && (
          <div class="incidents">
            {incidents.map((i) => (
              <IncidentCard
                key={i.id}
                page={page}
                incident={i}
                canWrite={canWrite}
                onChanged={() => void load()}
              />
            ))}
          </div>
        )}
        <ShowMore next={older} onMore={showOlder} label="Show older incidents" />
      </section>
      {deleting && (
        <Confirm
          title={`Delete “${page.name}”?`}
          body="The public page, its components and its incidents are removed; its address stops answering."
          action="Delete"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await statusApi.remove(page.id);
            navigate('/status-pages');
          }}
        />
      )}
    </section>
  );
};
