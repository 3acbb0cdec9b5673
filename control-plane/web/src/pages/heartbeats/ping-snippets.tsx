import { useState } from 'preact/hooks';
import type { Heartbeat } from '../../api-routing.js';
import { Snippet } from '../../routing-ui.js';

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

/** A member's or viewer's stand-in for the workspace's ping key, which only admins see. */
const KEY_PLACEHOLDER = 'PING_KEY';

/**
 * How to ping: the plain success, the ready lines the heartbeat's record carries (crontab, systemd,
 * Kubernetes, each with /start and the exit status, on its own schedule), runs paired by id, and a
 * failure with the job's output. A heartbeat with a slug offers the lines in either URL form: the slug
 * form (the default then) with the workspace's ping key for admins (`slugUrl`), with PING_KEY in its
 * place for others.
 */
export const PingSnippets = (props: { h: Heartbeat; slugUrl: string | null }) => {
  const { h } = props;
  const slugForm =
    props.slugUrl ??
    (h.slug ? h.ping_url.replace(/\/hb\/ping\/[^/]+$/, `/hb/ping/${KEY_PLACEHOLDER}/${h.slug}`) : null);
  const [form, setForm] = useState<'slug' | 'uuid'>('slug');
  const url = slugForm && form === 'slug' ? slugForm : h.ping_url;
  const inUrl = (text: string) => text.split(h.ping_url).join(url);
  return (
    <section class="panel" aria-labelledby="send-pings-title">
      <h2 id="send-pings-title">Send pings</h2>
      <p class="muted">
        The URL is the secret: anyone who has it can ping. GET, HEAD and POST all work; a POST body (the job’s
        output, up to 10,000 bytes) is kept with the ping. Each line below sends /start when the run begins
        (so its duration is recorded) and the exit status when it ends (a failure alerts at once).
      </p>
      {slugForm && (
        <fieldset class="url-form">
          <legend>URL in these lines</legend>
          <label>
            <input
              type="radio"
              name="snippet-url"
              checked={form === 'slug'}
              onChange={() => setForm('slug')}
            />{' '}
            By slug (<code>{h.slug}</code>)
          </label>
          <label>
            <input
              type="radio"
              name="snippet-url"
              checked={form === 'uuid'}
              onChange={() => setForm('uuid')}
            />{' '}
            By the heartbeat’s own URL
          </label>
          {!props.slugUrl && form === 'slug' && (
            <p class="hint tight">
              Put the workspace’s ping key in place of {KEY_PLACEHOLDER}: an admin can give it to you.
            </p>
          )}
        </fieldset>
      )}
      <Snippet wrap title="When the job succeeds" code={`${CURL} ${url}`} />
      {h.ping_snippets.map((s) => (
        <Snippet key={s.kind} wrap title={s.title} code={inUrl(s.text)} />
      ))}
      <Snippet
        wrap
        title="Start, then success or failure, paired by run id"
        code={`RID=$(uuidgen)\n${CURL} "${url}/start?rid=$RID"\nif /usr/local/bin/job.sh; then\n  ${CURL} "${url}?rid=$RID"\nelse\n  ${CURL} "${url}/fail?rid=$RID"\nfi`}
      />
      <Snippet
        wrap
        title="Failure with the job’s output"
        code={`/usr/local/bin/job.sh > /tmp/job.log 2>&1 || curl -fsS -m 10 --retry 5 --data-binary @/tmp/job.log ${url}/fail`}
      />
    </section>
  );
};
