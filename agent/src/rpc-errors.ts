import { Code, ConnectError } from '@connectrpc/connect';

/**
 * What the agent does about a failed call to the control plane, decided here and nowhere else (the
 * way grafana/synthetic-monitoring-agent's `handleError` sorts errors into transient and fatal):
 * - `transient`: the control plane is away, busy or restarting; try again soon (short full-jitter
 *   backoff). Checks keep running on the last assignments; results wait in the buffer.
 * - `credentials`: the control plane refuses this agent's token (revoked, expired, wrong). Retrying
 *   soon cannot help: wait long (`LOOKOUT_AGENT_AUTH_RETRY_SECONDS`), say so once, count it.
 * - `fatal`: the agent's own configuration contradicts the control plane (token of another region):
 *   the process stops.
 */
export type RpcErrorKind = 'transient' | 'credentials' | 'fatal';

export interface ClassifiedError {
  kind: RpcErrorKind;
  /** A stable name for logs: the gRPC code in snake case (`unauthenticated`), or `wrong_region`. */
  code: string;
  message: string;
  /** The session is gone on the server (superseded): register again rather than keep using it. */
  sessionLost: boolean;
}

/** The token names a region other than `LOOKOUT_AGENT_REGION`. */
export class WrongRegionError extends Error {
  constructor(
    readonly tokenRegion: string,
    readonly expectedRegion: string,
  ) {
    super(`the token is for region ${tokenRegion}, not ${expectedRegion} (LOOKOUT_AGENT_REGION)`);
    this.name = 'WrongRegionError';
  }
}

/** Every gRPC code has a decision; the compiler asks for one when a code is added. */
const byCode: Record<Code, RpcErrorKind> = {
  [Code.Unauthenticated]: 'credentials',
  [Code.PermissionDenied]: 'credentials',
  [Code.Unavailable]: 'transient',
  [Code.DeadlineExceeded]: 'transient',
  [Code.Internal]: 'transient',
  [Code.ResourceExhausted]: 'transient',
  [Code.Unknown]: 'transient',
  // Our own abort (the watchdog on a silent stream) or the peer going away.
  [Code.Canceled]: 'transient',
  // Superseded by a newer session of this instance: register again.
  [Code.Aborted]: 'transient',
  [Code.FailedPrecondition]: 'transient',
  // A control plane of another version in the middle of a rolling upgrade: the next one may know.
  [Code.Unimplemented]: 'transient',
  [Code.InvalidArgument]: 'transient',
  [Code.NotFound]: 'transient',
  [Code.AlreadyExists]: 'transient',
  [Code.OutOfRange]: 'transient',
  [Code.DataLoss]: 'transient',
};

const snake = (name: string) => name.replace(/[a-z](?=[A-Z])/g, '$&_').toLowerCase();

export const classifyRpcError = (e: unknown): ClassifiedError => {
  if (e instanceof WrongRegionError) {
    return { kind: 'fatal', code: 'wrong_region', message: e.message, sessionLost: false };
  }
  // Anything else (a socket error thrown outside a call, say) counts as Unknown: transient.
  const err = ConnectError.from(e);
  return {
    kind: byCode[err.code] ?? 'transient',
    code: snake(Code[err.code] ?? 'unknown'),
    message: err.rawMessage,
    sessionLost: err.code === Code.FailedPrecondition,
  };
};
