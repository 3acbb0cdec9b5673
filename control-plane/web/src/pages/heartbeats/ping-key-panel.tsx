import { useEffect, useState } from 'preact/hooks';
import { type PingKey, routingApi } from '../../api-routing.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox } from '../../kit/error-box.js';
import { CopyValue, Snippet } from '../../routing-ui.js';

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

/**
 * The workspace's ping key (admins): slug URLs, `/hb/ping/{ping key}/{slug}`, read like what they do;
 * `?create=1` makes a new job's first run create its heartbeat. Regenerated behind a confirmation.
 */
export const PingKeyPanel = () => {
  const [key, setKey] = useState<PingKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    routingApi.getPingKey().then(setKey, (e: Error) => setError(e.message));
  }, []);
  const url = key?.ping_url_template.replace('{slug}', 'nightly-backup');
  return (
    <section class="panel" aria-labelledby="ping-key-title">
      <h2 id="ping-key-title">Ping key</h2>
      <ErrorBox message={error} />
      <p class="muted">
        Ping a heartbeat by its slug with the workspace’s ping key. Add <code>?create=1</code> and a job’s
        first run creates its heartbeat (a day’s period, an hour’s grace, the default policy).
      </p>
      {key && url && (
        <>
          <CopyValue label="Ping key" copyLabel="Copy ping key" value={key.ping_key} />
          <Snippet
            wrap
            title="crontab, creating the heartbeat on its first run"
            code={`0 3 * * * ${CURL} "${url}/start?create=1"; /usr/local/bin/nightly-backup.sh; ${CURL} ${url}/$?`}
          />
          <div class="actions-row">
            <button type="button" class="button" onClick={() => setConfirming(true)}>
              Regenerate ping key
            </button>
          </div>
        </>
      )}
      {confirming && (
        <Confirm
          title="Regenerate the ping key?"
          body="Every slug URL with the current key stops working within seconds; uuid URLs keep working."
          action="Regenerate"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            setKey(await routingApi.regeneratePingKey());
          }}
        />
      )}
    </section>
  );
};
