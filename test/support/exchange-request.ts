import { type ExchangeRequest, requestBytes } from '../../agent/src/probers/http-exchange.js';

/** A plain-HTTP exchange to 127.0.0.1:`port`, as the http prober would build it; `over` changes it. */
export const loopbackExchange = (
  port: number,
  path: string,
  over: Partial<ExchangeRequest> = {},
): ExchangeRequest => ({
  host: '127.0.0.1',
  port,
  isHttps: false,
  servername: undefined,
  secureContext: undefined,
  lookup: undefined,
  named: false,
  bytes: requestBytes(over.head ? 'HEAD' : 'GET', path, `127.0.0.1:${port}`, { connection: 'close' }, null),
  head: false,
  wantCert: false,
  keepBody: 1 << 20,
  keepHeaders: false,
  ...over,
});
