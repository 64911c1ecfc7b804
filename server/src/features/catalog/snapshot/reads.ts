import { COUNT_CAP, type ListParams, type Page } from '../../../db/list.js';
import { encodeCursor, sortKeyOf, type SortKey } from '../../../db/keyset.js';
import { Dec } from '../../pricing/decimal.js';
import { OFFER_COLUMNS, type PricingRow, type RateFilter } from '../offers/repository.js';
import type { BranchCatalog, RateRow, SnapshotOffer } from './build.js';

// The catalogue's partner reads over a snapshot, each giving what its query gives (rows, order, totals, cursor).

export function ratesOf(c: BranchCatalog, f: RateFilter): RateRow[] {
  if (f.exchangeId === undefined && f.sourceCurrencyId === undefined && f.destCurrencyId === undefined) return c.rates;
  return c.rates.filter((r) => (f.exchangeId === undefined || r.exchange_id === f.exchangeId)
    && (f.sourceCurrencyId === undefined || r.c1_id === f.sourceCurrencyId)
    && (f.destCurrencyId === undefined || r.c2_id === f.destCurrencyId));
}

/** As offers/repository.ts's findPricing: the direct active offer first, else the reverse one; the exchange even without one. */
export function pricingOf(c: BranchCatalog, exchangeId: number, sourceId: number, destId: number): PricingRow | undefined {
  const e = c.exchanges.get(exchangeId);
  if (!e) return undefined;
  let found: SnapshotOffer | undefined;
  for (const o of c.offers) {
    if (o.exchange_id !== exchangeId || !o.is_active) continue;
    if (o.currency1_id === sourceId && o.currency2_id === destId) { found = o; break; }
    if (o.currency1_id === destId && o.currency2_id === sourceId) found = o;
  }
  return {
    exchange_id: e.id, exchange_active: e.is_active, offer_id: found?.id ?? null, currency1_id: found?.currency1_id ?? null,
    rate: found?.rate ?? null, min_amount: found?.min_amount ?? null, max_amount: found?.max_amount ?? null,
  };
}

/** The row of the offers list (offers/repository.ts's page select). */
export function offerRow(c: BranchCatalog, o: SnapshotOffer) {
  const c1 = c.currencies.get(o.currency1_id)!;
  const c2 = c.currencies.get(o.currency2_id)!;
  return {
    id: o.id, exchange_id: o.exchange_id, rate: o.rate, min_amount: o.min_amount, max_amount: o.max_amount, is_active: o.is_active,
    created_at: o.created_at, updated_at: o.updated_at, c1_id: c1.id, c1_code: c1.code, c1_name: c1.name, c2_id: c2.id, c2_code: c2.code, c2_name: c2.name,
  };
}

type Field = keyof typeof OFFER_COLUMNS;
const FILTERS: Record<string, (o: SnapshotOffer) => unknown> = {
  isActive: (o) => o.is_active, exchangeId: (o) => o.exchange_id, currency1Id: (o) => o.currency1_id, currency2Id: (o) => o.currency2_id,
};
const compareNumber = (a: number, b: number) => a - b;
const compareDecimal = (a: string, b: string) => new Dec(a).cmp(new Dec(b));
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Each sort field: how two offers compare on it, and its value as the cursor holds it (the column as text). */
const SORTS: Record<string, { cmp: (a: SnapshotOffer, b: SnapshotOffer) => number; text: (o: SnapshotOffer) => string }> = {
  id: { cmp: (a, b) => compareNumber(a.id, b.id), text: (o) => String(o.id) },
  exchangeId: { cmp: (a, b) => compareNumber(a.exchange_id, b.exchange_id), text: (o) => String(o.exchange_id) },
  currency1Id: { cmp: (a, b) => compareNumber(a.currency1_id, b.currency1_id), text: (o) => String(o.currency1_id) },
  currency2Id: { cmp: (a, b) => compareNumber(a.currency2_id, b.currency2_id), text: (o) => String(o.currency2_id) },
  rate: { cmp: (a, b) => compareDecimal(a.rate, b.rate), text: (o) => o.rate },
  minAmount: { cmp: (a, b) => compareDecimal(a.min_amount, b.min_amount), text: (o) => o.min_amount },
  maxAmount: { cmp: (a, b) => compareDecimal(a.max_amount, b.max_amount), text: (o) => o.max_amount },
  createdAt: { cmp: (a, b) => compareText(a.created_order, b.created_order), text: (o) => o.created_text },
  updatedAt: { cmp: (a, b) => compareText(a.updated_order, b.updated_order), text: (o) => o.updated_text },
};

function comparator(key: SortKey) {
  return (a: SnapshotOffer, b: SnapshotOffer) => {
    for (const [field, dir] of key) {
      const d = SORTS[field]!.cmp(a, b);
      if (d !== 0) return dir === 'ASC' ? d : -d;
    }
    return 0;
  };
}

/**
 * A page of the offers list as db/list.ts's pageQuery gives it: filters, any allowed sort, `skip`, the capped
 * total and the next page's cursor. A page after a cursor is left to the database (undefined): its values are
 * the caller's text, which only PostgreSQL reads exactly as it compares them.
 */
export function offersPageOf(c: BranchCatalog, params: ListParams): Page<ReturnType<typeof offerRow>> | undefined {
  if (params.cursor !== undefined) return undefined;
  for (const field of Object.keys(params.filter)) if (!FILTERS[field]) return undefined;
  for (const [field] of params.sort) if (!SORTS[field] || !(field in OFFER_COLUMNS)) return undefined;
  const filters = Object.entries(params.filter).map(([field, value]) => [FILTERS[field]!, value] as const);
  let matches = filters.length === 0 ? c.offers : c.offers.filter((o) => filters.every(([get, value]) => get(o) === value));
  const key = sortKeyOf(params.sort);
  if (!(key.length === 1 && key[0]![0] === 'id' && key[0]![1] === 'ASC')) matches = [...matches].sort(comparator(key));
  const end = params.skip + params.limit;
  const rows = matches.slice(params.skip, end);
  const last = rows[rows.length - 1];
  const nextCursor = matches.length > end && last ? encodeCursor(key, OFFER_COLUMNS, key.map(([field]) => SORTS[field as Field]!.text(last))) : null;
  const totalCapped = matches.length > COUNT_CAP;
  return { rows: rows.map((o) => offerRow(c, o)), total: totalCapped ? COUNT_CAP : matches.length, totalCapped, nextCursor };
}
