import { normalize } from '../pricing/decimal.js';
import type { TurnoverRecord } from './repository.js';
import type { GroupBy, TurnoverRow } from './schemas.js';
import { csvLine } from '../../http/csv.js';

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
        ? [r.period!]
        : groupBy === 'exchange'
          ? [r.exchangeId!]
          : groupBy === 'staff'
            ? [r.staff?.id ?? null, r.staff?.email ?? '']
            : [];
    // Figures are written as they are: a negative income is a number, never taken for a formula.
    return csvLine([...keys, r.currency.id, r.currency.ticker, r.received, r.paidOut, r.orders, r.income]);
  });
  return csvLine(header) + lines.join('');
}
