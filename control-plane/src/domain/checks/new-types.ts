import { z } from 'zod';
import { wireAssertions } from './assertions.js';
import { type CheckType, setting } from './check-type.js';
import { ASSERTIONS, SSL_CERT_EXPIRY_ALERT_DAYS, SSL_CERT_MONITORING, TIMED } from './common-fields.js';
import { PORT } from './first-types.js';
import { connectionTarget, hostPortTarget, hostTarget, urlTarget } from './targets.js';

/** Every later type's `assertions` field is the one ASSERTIONS field, with its default. */
const assertionsOf = (m: Parameters<CheckType['wire']>[0]) =>
  wireAssertions(setting(m, { assertions: ASSERTIONS }, 'assertions'));

/** ICMP echo: packet loss and the mean round trip. */
export const ping: CheckType = {
  label: 'Ping (ICMP)',
  assertionSources: ['packet_loss', 'response_time'],
  target: hostTarget('ping', { addresses: true }),
  fields: {
    packet_count: {
      schema: z.int().min(1).max(20).describe('ICMP echoes per check (default 3).'),
      stored: 'settings',
      default: 3,
    },
    assertions: ASSERTIONS,
    ...TIMED,
  },
  wire: (m) => ({
    case: 'ping',
    value: { packetCount: setting(m, ping.fields, 'packet_count'), assertions: assertionsOf(m) },
  }),
};

/** The gRPC health protocol (grpc.health.v1.Health/Check): SERVING expected. */
export const grpc: CheckType = {
  label: 'gRPC health',
  assertionSources: ['response_time', 'text_body', 'status_code'],
  target: hostPortTarget,
  fields: {
    grpc_service: {
      schema: z.string().max(200).describe('The service asked about; empty: the server as a whole.'),
      stored: 'settings',
      default: '',
    },
    grpc_tls: { schema: z.boolean().describe('Connect with TLS.'), stored: 'settings', default: false },
    assertions: ASSERTIONS,
    ...TIMED,
  },
  wire: (m) => ({
    case: 'grpc',
    value: {
      grpcService: setting(m, grpc.fields, 'grpc_service'),
      grpcTls: setting(m, grpc.fields, 'grpc_tls'),
      assertions: assertionsOf(m),
    },
  }),
};

/** A WebSocket that opens, optionally answers a message, and closes cleanly. */
export const websocket: CheckType = {
  label: 'WebSocket',
  assertionSources: ['text_body', 'json_body', 'response_time', 'status_code'],
  target: urlTarget(['ws:', 'wss:'], 'wss://example.com/socket'),
  fields: {
    ws_message: {
      schema: z.string().min(1).max(16384).nullable().describe('Sent once the socket is open.'),
      stored: 'settings',
      default: null,
    },
    assertions: ASSERTIONS,
    ...TIMED,
  },
  wire: (m) => ({
    case: 'websocket',
    value: {
      wsMessage: setting<string | null>(m, websocket.fields, 'ws_message') ?? '',
      assertions: assertionsOf(m),
    },
  }),
};

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;

/** A mail server: its banner, EHLO, STARTTLS or implicit TLS, and its certificate's expiry. */
export const smtp: CheckType = {
  label: 'SMTP',
  assertionSources: ['response_time', 'text_body'],
  target: hostTarget('smtp', { addresses: true }),
  fields: {
    port: { schema: PORT, stored: 'column', default: 25 },
    smtp_security: {
      schema: z.enum(SMTP_SECURITY).describe('none, starttls (STARTTLS after EHLO) or tls (implicit TLS).'),
      stored: 'settings',
      default: 'none',
    },
    ssl_cert_monitoring: SSL_CERT_MONITORING,
    ssl_cert_expiry_alert_days: SSL_CERT_EXPIRY_ALERT_DAYS,
    assertions: ASSERTIONS,
    ...TIMED,
  },
  rules: (m) =>
    m.ssl_cert_monitoring && setting(m, smtp.fields, 'smtp_security') === 'none'
      ? [{ field: 'ssl_cert_monitoring', message: 'needs smtp_security starttls or tls' }]
      : [],
  wire: (m) => ({
    case: 'smtp',
    value: {
      port: m.port ?? 25,
      smtpSecurity: setting(m, smtp.fields, 'smtp_security'),
      sslCertMonitoring: m.ssl_cert_monitoring,
      assertions: assertionsOf(m),
    },
  }),
};

/** A database that accepts a connection and answers a query; the connection URL is a secret. */
const database = (label: string, protocols: string[], example: string, query: string): CheckType => {
  const type: CheckType = {
    label,
    assertionSources: ['text_body', 'json_body', 'response_time'],
    target: connectionTarget(protocols, example),
    fields: {
      query: {
        schema: z.string().min(1).max(10000).describe(`Run once connected (default ${query}).`),
        stored: 'settings',
        default: query,
      },
      assertions: ASSERTIONS,
      ...TIMED,
    },
    wire: (m) => ({
      case: 'database',
      value: { query: setting(m, type.fields, 'query'), assertions: assertionsOf(m) },
    }),
  };
  return type;
};

export const postgres = database(
  'PostgreSQL',
  ['postgres:', 'postgresql:'],
  'postgres://monitor:secret@db.example.com:5432/app',
  'SELECT 1',
);
export const mysql = database(
  'MySQL / MariaDB',
  ['mysql:'],
  'mysql://monitor:secret@db.example.com:3306/app',
  'SELECT 1',
);
export const redis = database(
  'Redis',
  ['redis:', 'rediss:'],
  'redis://:secret@cache.example.com:6379/0',
  'PING',
);
