import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { classifyRpcError, WrongRegionError } from './rpc-errors.js';

describe('classifyRpcError', () => {
  it.each([
    [Code.Unauthenticated, 'credentials', 'unauthenticated'],
    [Code.PermissionDenied, 'credentials', 'permission_denied'],
    [Code.Unavailable, 'transient', 'unavailable'],
    [Code.DeadlineExceeded, 'transient', 'deadline_exceeded'],
    [Code.Internal, 'transient', 'internal'],
    [Code.ResourceExhausted, 'transient', 'resource_exhausted'],
    [Code.Canceled, 'transient', 'canceled'],
    [Code.Aborted, 'transient', 'aborted'],
    [Code.Unimplemented, 'transient', 'unimplemented'],
  ] as const)('gRPC code %s is %s', (code, kind, name) => {
    expect(classifyRpcError(new ConnectError('x', code))).toMatchObject({ kind, code: name, message: 'x' });
  });

  it('decides by the code, not the wording', () => {
    // A transient error whose message reads like a credentials problem stays transient, and back.
    expect(classifyRpcError(new ConnectError('token not valid', Code.Unavailable)).kind).toBe('transient');
    expect(classifyRpcError(new ConnectError('try later', Code.Unauthenticated)).kind).toBe('credentials');
    expect(classifyRpcError(new Error('not eu (LOOKOUT_AGENT_REGION)')).kind).toBe('transient');
  });

  it('a token of another region is fatal; a superseded session must register again', () => {
    expect(classifyRpcError(new WrongRegionError('us-east', 'eu-west'))).toMatchObject({
      kind: 'fatal',
      code: 'wrong_region',
      message: 'the token is for region us-east, not eu-west (LOOKOUT_AGENT_REGION)',
    });
    expect(classifyRpcError(new ConnectError('superseded', Code.FailedPrecondition)).sessionLost).toBe(true);
    expect(classifyRpcError(new ConnectError('x', Code.Unavailable)).sessionLost).toBe(false);
  });

  it('anything not from a call is transient (unknown)', () => {
    expect(classifyRpcError(new Error('socket hang up'))).toMatchObject({
      kind: 'transient',
      code: 'unknown',
    });
  });
});
