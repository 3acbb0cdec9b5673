import { type Channel, type Delivery, routingApi } from '../../api-routing.js';
import { formatDateTime } from '../../format.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ListBody, ShowMore, useList } from '../../kit/paging.js';

const OUTCOME: Record<Delivery['outcome'], string> = {
  sent: 'Sent',
  retrying: 'Failed, retried',
  failed: 'Failed',
};

/** What a delivery was: a test, a step of an alert's escalation, or what followed it. */
const what = (d: Delivery) =>
  d.test
    ? 'Test'
    : d.idempotency_key?.includes(':follow:')
      ? `Alert ${d.idempotency_key.split(':follow:')[1]!.split(':')[0]}`
      : `Alert, step ${(d.step ?? 0) + 1}`;

/** One channel's delivery log, newest first, a page at a time. */
export const DeliveryLog = (props: { channel: Channel; onClose: () => void }) => {
  const { items, next, error, more } = useList(
    (cursor) => routingApi.listDeliveries(props.channel.id, cursor),
    {
      deps: [props.channel.id],
    },
  );
  return (
    <section class="panel flush" aria-labelledby="delivery-log-title">
      <div class="panel-head">
        <h2 id="delivery-log-title">Deliveries of {props.channel.name}</h2>
        <button type="button" class="button small" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ErrorBox message={error} inset />
      <ListBody items={items} empty="Nothing sent through this channel yet.">
        {(list) => (
          <table class="keys">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Outcome</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.id}>
                  <th scope="row">{formatDateTime(d.at)}</th>
                  <td data-label="What">
                    {what(d)}
                    {d.attempt > 1 ? `, attempt ${d.attempt}` : ''}
                  </td>
                  <td data-label="Outcome">{OUTCOME[d.outcome]}</td>
                  <td data-label="Answer" class="target">
                    {d.status_code !== null ? `HTTP ${d.status_code}` : ''}
                    {d.error ? ` ${d.error}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListBody>
      <ShowMore next={next} onMore={more} />
    </section>
  );
};
