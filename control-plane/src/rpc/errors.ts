import { Code, ConnectError } from '@connectrpc/connect';
import { errorStatus, isAppError } from '@lookout/shared';

const codes: Record<string, Code> = {
  invalid_argument: Code.InvalidArgument,
  resource_exhausted: Code.ResourceExhausted,
  unauthenticated: Code.Unauthenticated,
  permission_denied: Code.PermissionDenied,
  not_found: Code.NotFound,
  already_exists: Code.AlreadyExists,
  unavailable: Code.Unavailable,
  unimplemented: Code.Unimplemented,
  aborted: Code.Aborted,
  internal: Code.Internal,
};

/** AppError → ConnectError through the one table in shared/src/errors.ts; anything else is internal. */
export const toConnectError = (e: unknown): ConnectError => {
  if (e instanceof ConnectError) return e;
  if (isAppError(e)) return new ConnectError(e.message, codes[errorStatus[e.code].connect] ?? Code.Internal);
  return new ConnectError('internal error', Code.Internal);
};
