/** A number we wrote ourselves (an id, an amount) is data, never a formula, whatever its sign. */
const NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet may take for a formula at the start of a cell (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell of every CSV the service writes (the orders export, the turnover report), RFC 4180: quoted when it holds
 * a quote, comma or line break; typed text that looks like a formula is defused with an apostrophe.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (!NUMBER.test(text) && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with its CRLF end. */
export const csvLine = (cells: readonly (string | number | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;
