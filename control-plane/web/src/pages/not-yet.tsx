import { followLink } from '../router.js';

/** Pages the app will have (DESIGN.md) but this version does not show yet. */
export const NotYetPage = (props: { path: string }) => (
  <section class="page">
    <h1>Not here yet</h1>
    <p class="lead">
      <code>{props.path}</code> is not part of the web app yet. Everything is available through the API under{' '}
      <code>/api/v1</code>.
    </p>
    <p>
      <a href="/monitors" onClick={followLink}>
        Go to Monitors
      </a>
    </p>
  </section>
);
