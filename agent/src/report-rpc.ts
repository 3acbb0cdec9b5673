import { WireType } from '@bufbuild/protobuf/wire';
import type { Transport } from '@connectrpc/connect';
import {
  AgentService,
  type EncodedReportResultsRequest,
  EncodedReportResultsRequestSchema,
  type ReportResultsResponse,
} from '@lookout/proto';

/** ReportResults with EncodedReportResultsRequest as its input; its name, path and output are the generated ones. */
const method = { ...AgentService.method.reportResults, input: EncodedReportResultsRequestSchema };

/** The request's field number for its results (ReportResultsRequest's and EncodedReportResultsRequest's). */
export const RESULTS_FIELD = 2;
const RESULTS_TAG = (RESULTS_FIELD << 3) | WireType.LengthDelimited;

/** What one call sends: the agent's session, and its results as `results` records back to back. */
export interface EncodedReport {
  instanceId: string;
  sessionId: string;
  /** Each result as one record of field RESULTS_FIELD (tag, length, bytes), as waiting-results.ts keeps them. */
  records: Uint8Array;
}

/**
 * ReportResults as the agent calls it: the results go out as the records the agent wrote when each
 * run ended (waiting-results.ts), in one piece. protobuf-es writes a message's unknown fields after
 * its own as their tag followed by their data, as given; so the records travel as one unknown field
 * whose data is everything after the first record's tag, and the bytes on the wire are those of a
 * ReportResultsRequest with those results, which is how the control plane decodes them (agent.proto).
 */
export const reportEncodedResults =
  (transport: Transport) =>
  async (report: EncodedReport, options: { timeoutMs: number }): Promise<ReportResultsResponse> => {
    const { records } = report;
    if (records.length > 0 && records[0] !== RESULTS_TAG) {
      throw new Error(`results records must start with field ${RESULTS_FIELD}'s tag`);
    }
    const message: EncodedReportResultsRequest = {
      $typeName: EncodedReportResultsRequestSchema.typeName,
      instanceId: report.instanceId,
      sessionId: report.sessionId,
      results: [],
      ...(records.length > 0
        ? { $unknown: [{ no: RESULTS_FIELD, wireType: WireType.LengthDelimited, data: records.subarray(1) }] }
        : {}),
    };
    return (await transport.unary(method, undefined, options.timeoutMs, undefined, message)).message;
  };

export type ReportEncodedResults = ReturnType<typeof reportEncodedResults>;
