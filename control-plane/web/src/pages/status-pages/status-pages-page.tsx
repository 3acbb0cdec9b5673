import type { Me } from '../../api.js';
import { statusApi } from '../../api-status.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ListBody, ShowMore, useList } from '../../kit/paging.js';
import { followLink, navigate } from '../../router.js';
import { visibilityLabel } from './status-words.js';

/** `/status-pages`: every status page with its slug, public address and visibility; create one. */
export const StatusPagesPage = (props: { me: Me }) => {
  const canWrite = props.me.user.role !== 'viewer';
  // Live until "Show more" was used; then the list stands still.
  const {
    items: list,
    next,
    error,
    more,
  } = useList((cursor) => statusApi.list(cursor), { poll: 'until-more' });
  return (
    <section class="page">
      <div class="page-head">
        <h1>Status pages</h1>
        {canWrite && (
          <button type="button" class="button primary" onClick={() => navigate('/status-pages/new')}>
            New status page
          </button>
        )}
      </div>
      <p class="lead">
        A public page that tells your customers what is up, live, from your monitors and heartbeats, with the
        incidents you report.
      </p>
      <section class="panel flush" aria-labelledby="sp-list-title">
        <div class="panel-head">
          <h2 id="sp-list-title">All status pages</h2>
          <span class="muted">{list ? `${list.length}${next ? '+' : ''}` : ''}</span>
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={list} empty="No status pages yet.">
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Slug</th>
                  <th scope="col">Public page</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Components</th>
                  <th scope="col">Subscribers</th>
                </tr>
              </thead>
              <tbody>
                {list.map((p) => (
                  <tr key={p.id}>
                    <th scope="row" class="key-name">
                      <a href={`/status-pages/${p.id}`} onClick={followLink}>
                        {p.name}
                      </a>
                    </th>
                    <td data-label="Slug">
                      <code>{p.slug}</code>
                    </td>
                    <td data-label="Public page" class="public-link">
                      <a
                        href={p.public_url}
                        target="_blank"
                        rel="noopener"
                        aria-label={`${p.name} public page`}
                      >
                        /status/{p.slug}
                      </a>
                    </td>
                    <td data-label="Visibility">{visibilityLabel(p)}</td>
                    <td data-label="Components">{p.components.length}</td>
                    <td data-label="Subscribers">{p.subscriber_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
        <ShowMore next={next} onMore={more} />
      </section>
    </section>
  );
};
