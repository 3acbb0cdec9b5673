import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';

/** Whether the request announced a body that has not all arrived yet. */
const bodyStillArriving = (req: IncomingMessage) =>
  !req.complete &&
  ((req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') ||
    req.headers['transfer-encoding'] !== undefined);

/**
 * The HTTP server's response (`createServer({ ServerResponse })`). A response that starts while the
 * request's body is still arriving — an early 401, 404 or 413, given without reading the body — says
 * `Connection: close`, and node closes the connection once it is sent. Kept alive instead, node would
 * go on reading the rest of the body for the next request, and a body that never ends would get a
 * second answer, the request timeout's 408, long after the first.
 */
export class ClosingResponse extends ServerResponse<IncomingMessage> {
  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    if (!this.headersSent && bodyStillArriving(this.req)) this.setHeader('connection', 'close');
    // node's writeHead takes (status, headers) as well as (status, reason, headers).
    return super.writeHead(statusCode, reasonOrHeaders as string | undefined, headers);
  }
}
