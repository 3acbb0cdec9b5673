/** The one place that names failures: Node error codes → a stable kind and a readable message. */
const kinds: Record<string, string> = {
  EBLOCKED: 'blocked_target',
  ENOTFOUND: 'dns_failure',
  EAI_AGAIN: 'dns_failure',
  ENODATA: 'dns_failure',
  ESERVFAIL: 'dns_failure',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'timeout',
  ETIMEOUT: 'timeout',
  ABORT_ERR: 'timeout',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls_hostname_mismatch',
  CERT_HAS_EXPIRED: 'tls_invalid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls_invalid',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls_invalid',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls_invalid',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls_invalid',
  CERT_NOT_YET_VALID: 'tls_invalid',
};

export const classifyError = (e: unknown): { kind: string; message: string } => {
  const err = e as { code?: string; name?: string; message?: string };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError')
    return { kind: 'timeout', message: 'timed out' };
  const kind = (err?.code && kinds[err.code]) ?? 'error';
  return { kind, message: `${err?.code ? `${err.code}: ` : ''}${err?.message ?? String(e)}`.slice(0, 500) };
};
