import { AppError } from '@lookout/shared';
import type { ReportBuilder } from './monthly-report.js';

/**
 * The monthly mail's report, built as `GET /reports/sla` builds it (the same function, the same
 * figures). Until the SLA computation is in this tree the builder refuses with 503.
 */
export const slaReportBuilder =
  (_store: unknown): ReportBuilder =>
  async () => {
    throw new AppError('unavailable', 'SLA reports cannot be built yet');
  };
