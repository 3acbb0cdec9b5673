import type { Server } from 'node:net';
import type { Logger } from '@lookout/shared';

/**
 * Caps a listener's open connections: beyond `max`, node closes each new connection at once. Refusals
 * are logged as a warning at most once a minute, with how many there were, so a flood does not also
 * flood the log.
 */
export const capConnections = (server: Server, max: number, logger: Logger, listener: string) => {
  server.maxConnections = max;
  let refused = 0;
  let loggedAt = 0;
  server.on('drop', () => {
    refused++;
    const now = Date.now();
    if (now - loggedAt < 60_000) return;
    logger.warn(
      { listener, max_connections: max, refused },
      'connection cap reached: refusing new connections',
    );
    loggedAt = now;
    refused = 0;
  });
};
