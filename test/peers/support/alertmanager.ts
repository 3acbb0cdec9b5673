import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBinary, freePort, type RunningBinary, startBinary } from './binaries.js';

/** Debian's prometheus-alertmanager (or upstream's `alertmanager`), configured at test time. */
export interface Alertmanager extends RunningBinary {
  url: string;
  /** POST /api/v2/alerts, as Prometheus does. */
  postAlerts(alerts: unknown[]): Promise<void>;
}

export const startAlertmanager = async (opts: {
  dir: string;
  /** Where the webhook receiver sends to, with the bearer credentials to use. */
  webhookUrl: string;
  bearer: string;
  /** Alerts labelled via="pagerduty" go to this PagerDuty Events v2 URL instead, with this routing key. */
  pagerduty?: { url: string; routingKey: string };
}): Promise<Alertmanager> => {
  const bin = findBinary(
    ['prometheus-alertmanager', 'alertmanager'],
    'apt-get install -y prometheus-alertmanager (Debian/Ubuntu), or put upstream’s alertmanager on PATH',
  );
  mkdirSync(join(opts.dir, 'data'), { recursive: true });
  const config = join(opts.dir, 'alertmanager.yml');
  // JSON is YAML: no YAML library needed.
  writeFileSync(
    config,
    JSON.stringify(
      {
        global: { resolve_timeout: '5s' },
        route: {
          receiver: 'lookout',
          group_by: ['alertname'],
          group_wait: '0s',
          group_interval: '1s',
          repeat_interval: '2s',
          routes: opts.pagerduty ? [{ receiver: 'lookout-pagerduty', matchers: ['via="pagerduty"'] }] : [],
        },
        receivers: [
          ...(opts.pagerduty
            ? [
                {
                  name: 'lookout-pagerduty',
                  pagerduty_configs: [
                    { url: opts.pagerduty.url, routing_key: opts.pagerduty.routingKey, send_resolved: true },
                  ],
                },
              ]
            : []),
          {
            name: 'lookout',
            webhook_configs: [
              {
                url: opts.webhookUrl,
                send_resolved: true,
                http_config: { authorization: { type: 'Bearer', credentials: opts.bearer } },
              },
            ],
          },
        ],
      },
      null,
      2,
    ),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await startBinary(
    bin,
    [
      `--config.file=${config}`,
      `--storage.path=${join(opts.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=debug',
    ],
    `${url}/-/ready`,
  );
  return {
    ...running,
    url,
    async postAlerts(alerts) {
      const r = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      });
      if (!r.ok) throw new Error(`alertmanager refused the alerts: ${r.status} ${await r.text()}`);
    },
  };
};
