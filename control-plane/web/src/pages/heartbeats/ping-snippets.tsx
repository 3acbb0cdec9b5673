import type { Heartbeat } from '../../api-routing.js';
import { Snippet } from '../../routing-ui.js';

/** A crontab schedule that fits the period, for the example. */
const cronFor = (period: number) => {
  if (period % 86_400 === 0) return '0 3 * * *';
  if (period === 3600) return '0 * * * *';
  if (period % 3600 === 0 && period < 86_400) return `0 */${period / 3600} * * *`;
  if (period < 3600 && period % 60 === 0) return `*/${period / 60} * * * *`;
  return '0 * * * *';
};

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

export const PingSnippets = (props: { h: Heartbeat }) => {
  const url = props.h.ping_url;
  return (
    <section class="panel" aria-labelledby="send-pings-title">
      <h2 id="send-pings-title">Send pings</h2>
      <p class="muted">
        The URL is the secret: anyone who has it can ping. GET, HEAD and POST all work; a POST body (the job’s
        output, up to 10,000 bytes) is kept with the ping.
      </p>
      <Snippet wrap title="When the job succeeds" code={`${CURL} ${url}`} />
      <Snippet
        wrap
        title="In cron"
        code={`${cronFor(props.h.period_seconds)} /usr/local/bin/job.sh && ${CURL} ${url}`}
      />
      <Snippet wrap title="With the exit status" code={`/usr/local/bin/job.sh\n${CURL} ${url}/$?`} />
      <Snippet
        wrap
        title="Start, then success or failure (measures the run)"
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
