import { normalize } from '../pricing/decimal.js';
import type { TurnoverRecord } from './repository.js';
import type { GroupBy, TurnoverRow } from './schemas.js';

export const CSV_TYPE = 'text/csv; charset=utf-8';

const figures = (r: TurnoverRecord) => ({
  received: normalize(r.received),
  paidOut: normalize(r.paid_out),
  orders: r.orders,
  income: normalize(r.income),
});

export function row(r: TurnoverRecord, groupBy: GroupBy): TurnoverRow {
  const currency = { id: r.currency_id, ticker: r.ticker };
  switch (groupBy) {
    case 'day':
      return { period: r.label, currency, ...figures(r) };
    case 'exchange':
      return { exchangeId: r.exchange_id!, currency, ...figures(r) };
    case 'staff':
      return { staff: r.staff_id ? { id: r.staff_id, email: r.staff_email } : null, currency, ...figures(r) };
    case 'currency':
      return { currency, ...figures(r) };
  }
}

export function today(r: TurnoverRecord) {
  return { currency: { id: r.currency_id, ticker: r.ticker }, ...figures(r) };
}

/**
 * A text field of a CSV row (RFC 4180): quoted when it holds a quote, a comma or a line break; one that a spreadsheet
 * would run as a formula (= + - @, a tab or a carriage return first) is prefixed with an apostrophe. Figures are
 * written as they are: a negative income is a number, not a formula.
 */
function text(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const KEY_COLUMNS: Record<GroupBy, string[]> = {
  day: ['period'],
  exchange: ['exchangeId'],
  currency: [],
  staff: ['staffId', 'staffEmail'],
};

/** The report's rows as CSV: a header, then one line per row, CRLF line ends, exact decimals. */
export function turnoverCsv(groupBy: GroupBy, rows: readonly TurnoverRow[]): string {
  const header = [...KEY_COLUMNS[groupBy], 'currencyId', 'currencyTicker', 'received', 'paidOut', 'orders', 'income'];
  const lines = rows.map((r) => {
    const keys =
      groupBy === 'day'
        ? [text(r.period!)]
        : groupBy === 'exchange'
          ? [String(r.exchangeId)]
          : groupBy === 'staff'
            ? [r.staff ? String(r.staff.id) : '', text(r.staff?.email ?? '')]
            : [];
    const figures = [r.received, r.paidOut, r.orders, r.income].map(String);
    return [...keys, String(r.currency.id), text(r.currency.ticker), ...figures].join(',');
  });
  return [header.join(','), ...lines].map((l) => `${l}\r\n`).join('');
}
