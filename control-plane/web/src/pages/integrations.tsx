import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api.js';
import { type Integration, type IntegrationKind, type Policy, routingApi } from '../api-routing.js';
import { formatDate } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { ListBody, useList } from '../kit/paging.js';
import { Address, AdminsOnly, CopyValue, Snippet } from '../routing-ui.js';

const KINDS: { value: IntegrationKind; label: string }[] = [
  { value: 'alertmanager', label: 'Prometheus Alertmanager' },
  { value: 'grafana', label: 'Grafana' },
  { value: 'pagerduty', label: 'PagerDuty Events API v2' },
  { value: 'webhook', label: 'Generic webhook' },
];
const kindLabel = (k: IntegrationKind) => KINDS.find((x) => x.value === k)?.label ?? k;

/** The ready configuration for the integration's kind, with its endpoint and key filled in. */
export const snippetsFor = (i: Integration, key: string): { title: string; code: string }[] => {
  const url = i.endpoint;
  switch (i.kind) {
    case 'alertmanager':
      return [
        {
          title: 'alertmanager.yml',
          code: `route:
  receiver: lookout
receivers:
  - name: lookout
    webhook_configs:
      - url: ${url}
        send_resolved: true
        max_alerts: 1000 # Lookout takes at most 1,000 alerts per request
        http_config:
          authorization:
            type: Bearer
            credentials: ${key}`,
        },
      ];
    case 'grafana':
      return [
        {
          title: 'Grafana contact point (Webhook), as provisioning YAML',
          code: `apiVersion: 1
contactPoints:
  - orgId: 1
    name: Lookout
    receivers:
      - uid: lookout
        type: webhook
        settings:
          url: ${url}
          httpMethod: POST
          authorization_scheme: Bearer
          authorization_credentials: ${key}`,
        },
      ];
    case 'pagerduty': {
      const root = url.replace(/\/api\/v1\/integrations\/pagerduty\/v2\/enqueue$/, '/v2/enqueue');
      return [
        {
          title: 'Any PagerDuty Events v2 sender',
          code: `Events API v2 URL: ${root}\nrouting_key (integration key): ${key}`,
        },
        {
          title: 'Alertmanager pagerduty_configs',
          code: `receivers:
  - name: lookout
    pagerduty_configs:
      - url: ${root}
        routing_key: ${key}`,
        },
        {
          title: 'Try it with curl',
          code: `curl -fsS -X POST ${url} -H 'Content-Type: application/json' \\
  -d '{"routing_key": "${key}", "event_action": "trigger", "dedup_key": "disk-db-1",
       "payload": {"summary": "Disk almost full on db-1", "source": "db-1", "severity": "critical"}}'`,
        },
      ];
    }
    case 'webhook':
      return [
        {
          title: 'Send an alert',
          code: `curl -fsS -X POST ${url} \\
  -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\
  -d '{"title": "Queue backed up", "severity": "warning", "dedup_key": "queue-1"}'`,
        },
      ];
  }
};

/** The key of a new (or rotated) integration, shown this once, with where and how to use it. */
const NewKey = (props: {
  integration: Integration;
  keyValue: string;
  rotated: boolean;
  onDone: () => void;
}) => (
  <section class="panel new-key" aria-labelledby="int-key-title">
    <h2 id="int-key-title">
      {props.rotated ? 'New service key for' : 'Service key of'} “{props.integration.name}”
    </h2>
    <p class="warning">
      Copy it now: <strong>this key will not be shown again.</strong> Only its last four characters are kept.
      {props.rotated ? ' The old key has stopped working.' : ''}
    </p>
    <CopyValue label="Service key" copyLabel="Copy service key" value={props.keyValue} />
    <p class="endpoint">
      Endpoint: <Address value={props.integration.endpoint} />
    </p>
    <section aria-labelledby="int-config-title" class="configuration">
      <h3 id="int-config-title">Configuration</h3>
      {snippetsFor(props.integration, props.keyValue).map((s) => (
        <Snippet key={s.title} title={s.title} code={s.code} />
      ))}
    </section>
    <button type="button" class="button" onClick={props.onDone}>
      Done
    </button>
  </section>
);

/** `/routing/integrations` (admins): inbound alert sources; create (key once), rotate, delete. */
export const IntegrationsPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [policies, setPolicies] = useState<Policy[]>([]);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<IntegrationKind>('alertmanager');
  const [policy, setPolicy] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<{ integration: Integration; key: string; rotated: boolean } | null>(
    null,
  );
  const [confirm, setConfirm] = useState<{ kind: 'rotate' | 'delete'; integration: Integration } | null>(
    null,
  );
  const {
    items: list,
    error,
    reload: load,
  } = useList(() => routingApi.listIntegrations(), { enabled: admin });
  useEffect(() => {
    if (!admin) return;
    routingApi.listPolicies().then(
      (p) => setPolicies(p.data),
      () => {},
    );
  }, []);
  if (!admin) return <AdminsOnly title="Integrations" />;

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await routingApi.createIntegration({
        name,
        kind,
        ...(policy ? { escalation_policy_id: policy } : {}),
      });
      const { service_key, ...integration } = r;
      setShown({ integration, key: service_key, rotated: false });
      setName('');
      setProblems({});
      await load();
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const policyName = (id: string | null) =>
    id ? (policies.find((p) => p.id === id)?.name ?? '–') : 'Workspace default';

  return (
    <section class="page">
      <h1>Integrations</h1>
      <p class="lead">
        Alerts from your other tools. Each integration has its own endpoint and service key: point
        Alertmanager, Grafana or anything that speaks PagerDuty’s Events API at it.
      </p>
      {shown ? (
        <NewKey
          integration={shown.integration}
          keyValue={shown.key}
          rotated={shown.rotated}
          onDone={() => setShown(null)}
        />
      ) : (
        <section class="panel" aria-labelledby="new-int-title">
          <h2 id="new-int-title">New integration</h2>
          <form class="create-form" onSubmit={create} noValidate aria-labelledby="new-int-title">
            <ErrorSummary problems={problems} />
            <TextField
              id="int-name"
              label="Name"
              problem={problems.name}
              class="grow"
              maxLength={100}
              placeholder="e.g. Prod Alertmanager"
              value={name}
              onValue={setName}
            />
            <Field id="int-kind" label="Kind" problem={problems.kind}>
              {(a) => (
                <select
                  {...a}
                  value={kind}
                  onChange={(e) => setKind(e.currentTarget.value as IntegrationKind)}
                >
                  {KINDS.map((k) => (
                    <option key={k.value} value={k.value}>
                      {k.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="int-policy" label="Escalation policy" problem={problems.escalation_policy_id}>
              {(a) => (
                <select {...a} value={policy} onChange={(e) => setPolicy(e.currentTarget.value)}>
                  <option value="">Workspace default</option>
                  {policies.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <div class="form-actions">
              <button type="submit" class="button primary" disabled={busy}>
                Create integration
              </button>
            </div>
          </form>
        </section>
      )}
      <section class="panel flush" aria-labelledby="ints-title">
        <div class="panel-head">
          <h2 id="ints-title">Integrations</h2>
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={list} empty="No integrations yet.">
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Key</th>
                  <th scope="col">Policy</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((i) => (
                  <tr key={i.id}>
                    <th scope="row" class="key-name">
                      {i.name}
                      <span class="muted block small">
                        {kindLabel(i.kind)} · created {formatDate(i.created_at)}
                      </span>
                    </th>
                    <td data-label="Endpoint" class="target">
                      <Address value={new URL(i.endpoint).pathname} />
                    </td>
                    <td data-label="Key">
                      <code>…{i.key_last_four}</code>
                    </td>
                    <td data-label="Policy">{policyName(i.escalation_policy_id)}</td>
                    <td class="actions">
                      <button
                        type="button"
                        class="button small"
                        aria-label={`Rotate key of ${i.name}`}
                        onClick={() => setConfirm({ kind: 'rotate', integration: i })}
                      >
                        Rotate key
                      </button>
                      <button
                        type="button"
                        class="button small danger-outline"
                        aria-label={`Delete ${i.name}`}
                        onClick={() => setConfirm({ kind: 'delete', integration: i })}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
      </section>
      {confirm?.kind === 'rotate' && (
        <Confirm
          title={`Rotate the key of “${confirm.integration.name}”?`}
          body="The current key stops working at once; the new one is shown once. Update the sending tool right after."
          action="Rotate key"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            const { service_key, ...integration } = await routingApi.rotateIntegrationKey(
              confirm.integration.id,
            );
            setShown({ integration, key: service_key, rotated: true });
            await load();
          }}
        />
      )}
      {confirm?.kind === 'delete' && (
        <Confirm
          title={`Delete “${confirm.integration.name}”?`}
          body="Its key stops working at once. Alerts it already raised stay."
          action="Delete"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await routingApi.deleteIntegration(confirm.integration.id);
            await load();
          }}
        />
      )}
    </section>
  );
};
