import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Transport } from '@connectrpc/connect';
import { AgentService, EncodedReportResultsRequestSchema, type ReportResultsResponse } from '@lookout/proto';

/** ReportResults with EncodedReportResultsRequest as its input; its name, path and output are the generated ones. */
const method = { ...AgentService.method.reportResults, input: EncodedReportResultsRequestSchema };

/**
 * ReportResults as the agent calls it: the results go out as the bytes the agent encoded
 * (result-encoder.ts). The two inputs are the same bytes on the wire (agent.proto says why).
 */
export const reportEncodedResults =
  (transport: Transport) =>
  async (
    request: MessageInitShape<typeof EncodedReportResultsRequestSchema>,
    options: { timeoutMs: number },
  ): Promise<ReportResultsResponse> =>
    (await transport.unary(method, undefined, options.timeoutMs, undefined, request)).message;

export type ReportEncodedResults = ReturnType<typeof reportEncodedResults>;
