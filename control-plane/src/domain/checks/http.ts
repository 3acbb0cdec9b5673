import { z } from 'zod';
import type { CatalogMonitor, MonitorType } from '../types.js';
import { wireAssertions } from './assertions.js';
import type { CheckField, CheckType } from './check-type.js';
import { setting } from './check-type.js';
import { ASSERTIONS, SSL_CERT_EXPIRY_ALERT_DAYS, SSL_CERT_MONITORING, TIMED } from './common-fields.js';
import { urlTarget } from './targets.js';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const auth = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('basic'),
    username: z.string().min(1).max(256),
    password: z.string().max(1024),
  }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1).max(4096) }),
]);

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name');

const column = (schema: z.ZodType, more: Partial<CheckField> = {}): CheckField => ({
  schema,
  stored: 'column',
  ...more,
});

const requestFields = {
  http_method: column(z.enum(HTTP_METHODS), { required: true }),
  expected_status_code: column(z.int().min(100).max(599).describe('e.g. 200.'), { required: true }),
  required_keyword: column(
    z.string().min(1).max(1024).nullable().describe('Alert unless the body contains this text.'),
  ),
  auth: column(auth.nullable()),
  request_headers: column(
    z
      .record(headerName, z.string().max(4096))
      .refine((h) => Object.keys(h).length <= 50, 'must have at most 50 headers'),
  ),
  follow_redirects: column(z.boolean()),
  max_redirects: {
    schema: z
      .int()
      .min(1)
      .max(20)
      .describe('With follow_redirects: fail past this many redirects (default 5).'),
    stored: 'settings',
    default: 5,
  } satisfies CheckField,
  assertions: ASSERTIONS,
  ...TIMED,
};

const authWire = (a: CatalogMonitor['auth']) =>
  a === null
    ? { case: undefined }
    : a.type === 'basic'
      ? { case: 'basic', value: { username: a.username, password: a.password } }
      : { case: 'bearerToken', value: a.token };

const wire = (m: CatalogMonitor) => ({
  case: 'http',
  value: {
    httpMethod: m.http_method ?? 'GET',
    requestHeaders: m.request_headers,
    requestBody: m.monitor_type === 'api' ? (m.request_body ?? '') : '',
    auth: authWire(m.auth),
    expectedStatusCode: m.expected_status_code,
    requiredKeyword: m.required_keyword ?? '',
    followRedirects: m.follow_redirects,
    maxRedirects: setting(m, requestFields, 'max_redirects'),
    sslCertMonitoring: m.monitor_type === 'http' && m.ssl_cert_monitoring,
    assertions: wireAssertions(setting(m, requestFields, 'assertions')),
  },
});

const target = urlTarget(['http:', 'https:'], 'https://example.com/health');

/** A web page: status, keyword, assertions, and its certificate's expiry. */
const HTTP_SOURCES = ['status_code', 'text_body', 'json_body', 'headers', 'response_time'] as const;

export const http: CheckType = {
  label: 'HTTP(S)',
  target,
  assertionSources: HTTP_SOURCES,
  fields: {
    ...requestFields,
    ssl_cert_monitoring: SSL_CERT_MONITORING,
    ssl_cert_expiry_alert_days: SSL_CERT_EXPIRY_ALERT_DAYS,
  },
  rules: (m) =>
    m.ssl_cert_monitoring && !m.url.toLowerCase().startsWith('https://')
      ? [{ field: 'ssl_cert_monitoring', message: 'needs an https:// URL' }]
      : [],
  wire,
};

/** An API call: a request with a body, checked like a page. */
export const api: CheckType = {
  label: 'API',
  target,
  assertionSources: HTTP_SOURCES,
  fields: { ...requestFields, request_body: column(z.string().max(65536).nullable()) },
  wire,
};

export const isHttpType = (t: MonitorType) => t === 'http' || t === 'api';
