import type { PricingRow, RateFilter } from '../offers/service.js';
import { positionKey } from '../cash/service.js';
import type { Available, BranchCatalog, RateRow, SnapshotOffer } from './snapshot-build.js';

// The catalogue's partner reads over a snapshot, each giving what its query gives (rows, order, totals, cursor).

export function ratesOf(c: BranchCatalog, f: RateFilter): (RateRow & Available)[] {
  if (f.exchangeId === undefined && f.sourceCurrencyId === undefined && f.destCurrencyId === undefined) return c.rates;
  return c.rates.filter(
    (r) =>
      (f.exchangeId === undefined || r.exchange_id === f.exchangeId) &&
      (f.sourceCurrencyId === undefined || r.c1_id === f.sourceCurrencyId) &&
      (f.destCurrencyId === undefined || r.c2_id === f.destCurrencyId),
  );
}

const NONE: SnapshotOffer[] = [];
const activeByExchange = new WeakMap<BranchCatalog, Map<number, SnapshotOffer[]>>();

/** The active offers of each exchange in id order, grouped once per snapshot: an estimate looks at one exchange's only. */
function activeOffersOf(c: BranchCatalog): Map<number, SnapshotOffer[]> {
  let byExchange = activeByExchange.get(c);
  if (!byExchange) {
    byExchange = new Map();
    for (const o of c.offers) {
      if (!o.is_active) continue;
      const list = byExchange.get(o.exchange_id);
      if (list) list.push(o);
      else byExchange.set(o.exchange_id, [o]);
    }
    activeByExchange.set(c, byExchange);
  }
  return byExchange;
}

/** As offers/repository.ts's findPricing: the direct active offer first, else the reverse one; the exchange even without one. */
export function pricingOf(
  c: BranchCatalog,
  exchangeId: number,
  sourceId: number,
  destId: number,
): PricingRow | undefined {
  const e = c.exchanges.get(exchangeId);
  if (!e) return undefined;
  let found: SnapshotOffer | undefined;
  for (const o of activeOffersOf(c).get(exchangeId) ?? NONE) {
    if (o.currency1_id === sourceId && o.currency2_id === destId) {
      found = o;
      break;
    }
    if (o.currency1_id === destId && o.currency2_id === sourceId) found = o;
  }
  return {
    exchange_id: e.id,
    exchange_active: e.is_active,
    offer_id: found?.id ?? null,
    currency1_id: found?.currency1_id ?? null,
    rate: found?.rate ?? null,
    min_amount: found?.min_amount ?? null,
    max_amount: found?.max_amount ?? null,
    reference_rate: found?.reference_rate ?? null,
  };
}

/** The row of the offers list (offers/repository.ts's page select). */
export function offerRow(c: BranchCatalog, o: SnapshotOffer) {
  const c1 = c.currencies.get(o.currency1_id)!;
  const c2 = c.currencies.get(o.currency2_id)!;
  return {
    id: o.id,
    exchange_id: o.exchange_id,
    rate: o.rate,
    min_amount: o.min_amount,
    max_amount: o.max_amount,
    is_active: o.is_active,
    created_at: o.created_at,
    updated_at: o.updated_at,
    c1_id: c1.id,
    c1_code: c1.code,
    c1_name: c1.name,
    c2_id: c2.id,
    c2_code: c2.code,
    c2_name: c2.name,
    c2_decimals: c2.decimals,
    available: c.available.get(positionKey(o.exchange_id, c2.id)),
  };
}
