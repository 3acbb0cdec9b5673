/**
 * CSV (RFC 4180, CRLF line ends) for every CSV the API writes (exports, the SLA report). A cell that a spreadsheet would run as a formula
 * (text starting with = + - @, a tab or a carriage return) gets a leading ' and is quoted: the
 * value reads the same, and opening the file runs nothing. Nested values (objects, arrays) are their
 * JSON text; null is an empty cell.
 */
const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  if (FORMULA.test(s)) return `"'${s.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** One line: the cells of `columns` of `row`, in that order. */
export const csvLine = (columns: readonly string[], row: Record<string, unknown>) =>
  `${columns.map((c) => csvCell(row[c])).join(',')}\r\n`;

export const csvHeader = (columns: readonly string[]) => `${columns.map(csvCell).join(',')}\r\n`;
