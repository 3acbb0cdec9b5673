import type { Heartbeat } from '../../api-routing.js';
import { Snippet } from '../../routing-ui.js';

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

/**
 * How to ping: the plain success, the ready lines the heartbeat's record carries (crontab, systemd,
 * Kubernetes, each with /start and the exit status, on its own schedule), runs paired by id, and a
 * failure with the job's output.
 */
export const PingSnippets = (props: { h: Heartbeat }) => {
  const url = props.h.ping_url;
  return (
    <section class="panel" aria-labelledby="send-pings-title">
      <h2 id="send-pings-title">Send pings</h2>
      <p class="muted">
        The URL is the secret: anyone who has it can ping. GET, HEAD and POST all work; a POST body (the job’s
        output, up to 10,000 bytes) is kept with the ping. Each line below sends /start when the run begins
        (so its duration is recorded) and the exit status when it ends (a failure alerts at once).
      </p>
      <Snippet wrap title="When the job succeeds" code={`${CURL} ${url}`} />
      {props.h.ping_snippets.map((s) => (
        <Snippet key={s.kind} wrap title={s.title} code={s.text} />
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
