import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger };

/** Paths that never reach a log line. */
const redact = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.api_key',
  '*.token',
  '*.key',
];

/** The one root logger of a process; components take `child({ component })`. */
export const createLogger = (
  opts: { level?: string; name?: string; destination?: pino.DestinationStream } = {},
) => {
  const options: LoggerOptions = {
    level: opts.level ?? 'info',
    base: opts.name ? { service: opts.name } : {},
    redact: { paths: redact, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
};

export const silentLogger = (): Logger => pino({ level: 'silent' });
