import type { MonitorType } from '@lookout/shared';
import type { DnsSettings, HttpSettings, ProbeSpec, SettingsByType, TcpSettings } from '../probe-port.js';

/** A spec as a test gives it: the type's settings flat, beside the spec's own fields. */
export type FlatSpec = Partial<Omit<ProbeSpec, 'settings'>> &
  Partial<HttpSettings & DnsSettings & TcpSettings>;

const HTTP: HttpSettings = {
  http_method: 'GET',
  request_headers: {},
  request_body: null,
  auth: null,
  expected_status_code: 200,
  required_keyword: null,
  follow_redirects: true,
  max_redirects: 5,
  ssl_cert_monitoring: false,
  assertions: [],
};
const DNS: DnsSettings = { dns_record_type: 'A', dns_expected_values: [], dns_resolver: null };

const pick = <S extends object>(defaults: S, over: object): S =>
  Object.fromEntries(
    Object.keys(defaults).map((k) => [k, k in over ? over[k as keyof typeof over] : defaults[k as keyof S]]),
  ) as S;

/**
 * A complete ProbeSpec for tests (an http check of 127.0.0.1 unless told), typed loosely so one helper
 * serves every prober's tests.
 */
// biome-ignore lint/suspicious/noExplicitAny: a test's spec is of whichever type its case names.
export const probeSpec = (over: FlatSpec): ProbeSpec<any> => {
  const type = (over.monitor_type ?? 'http') as MonitorType;
  const settings: Partial<SettingsByType> = {
    http: pick(HTTP, over),
    api: pick(HTTP, over),
    dns: pick(DNS, over),
    tcp: pick({ port: 0 } as TcpSettings, over),
    domain: {},
  };
  return {
    monitor_id: over.monitor_id ?? 'm',
    monitor_type: type,
    url: over.url ?? '127.0.0.1',
    timeout_ms: over.timeout_ms ?? 2000,
    settings: settings[type as keyof typeof settings] ?? {},
  } as ProbeSpec;
};
