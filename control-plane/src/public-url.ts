import type { Config } from './config.js';

type PublicUrlConfig = Pick<Config, 'public_url_scheme' | 'service_domain' | 'public_port'>;

/**
 * A workspace's base URL as the service prints it — the API URL at start, heartbeat ping URLs,
 * integration endpoints, the OpenAPI `servers`, the CLI's output. Built from configuration alone
 * (public scheme, service domain, public port), never from a request's Host or X-Forwarded-* headers,
 * which the client chooses. `listenPort` stands in when `public_port` is not set; the scheme's own
 * port (80 for http, 443 for https) is left out.
 */
export const workspaceBaseUrl = (config: PublicUrlConfig, subdomain: string, listenPort: number): string => {
  const port = config.public_port ?? listenPort;
  const schemePort = config.public_url_scheme === 'https' ? 443 : 80;
  return `${config.public_url_scheme}://${subdomain}.${config.service_domain}${port === schemePort ? '' : `:${port}`}`;
};
