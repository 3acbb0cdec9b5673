import { followLink } from '../router.js';

/** Any path the app has no page for (the server answers such a path with status 404 and this app). */
export const NotFoundPage = (props: { path: string }) => (
  <section class="page">
    <h1>Page not found</h1>
    <p class="lead">
      There is no page at <code>{props.path}</code>. The link may be old or mistyped.
    </p>
    <p>
      <a href="/monitors" onClick={followLink}>
        Go to Monitors
      </a>
    </p>
  </section>
);
