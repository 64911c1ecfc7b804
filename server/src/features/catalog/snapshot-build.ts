import type { Executor } from '../../db/database.js';
import type { listRates } from '../offers/service.js';
import { availableInBranch, positionKey } from '../cash/service.js';
import * as present from './presenters.js';
import { currenciesOf, exchangesOf, offersOf } from './repository.js';

/**
 * One branch's catalogue as partners read it: every exchange with its public schedule, every offer with the
 * currencies they name, and the answers that depend on nothing else, made once. Rows carry the columns and
 * types of the queries they replace, so the same presenters give byte-identical bodies.
 */
export interface BranchCatalog {
  exchanges: Map<number, SnapshotExchange>;
  /** Every offer of the branch partners may see, active or not (never a suspended one), in id order. */
  offers: SnapshotOffer[];
  currencies: Map<number, SnapshotCurrency>;
  publicExchanges: ReturnType<typeof present.publicExchange>[];
  publicCurrencies: ReturnType<typeof present.publicCurrency>[];
  /** Active offers of active exchanges, in id order, as listRates reads them, with their payout's available cash. */
  rates: (RateRow & Available)[];
  /** Available cash of the branch's tracked positions, by cash's positionKey: partners' reserves (docs/cash.md). */
  available: Map<string, string>;
}

/** A row's available cash of its payout currency; undefined when that currency is not tracked at its exchange. */
export interface Available {
  available: string | undefined;
}

export type RateRow = Awaited<ReturnType<typeof listRates>>[number];
export type SnapshotExchange = Awaited<ReturnType<typeof exchangesOf>>[number];
export type SnapshotOffer = Awaited<ReturnType<typeof offersOf>>[number];
export type SnapshotCurrency = Awaited<ReturnType<typeof currenciesOf>>[number];

/** Reads a branch's catalogue (four queries) and makes its fixed answers. */
export async function buildCatalog(db: Executor, branchId: number): Promise<BranchCatalog> {
  const [exchangeRows, offers, currencyRows, available] = await Promise.all([
    exchangesOf(db, branchId),
    offersOf(db, branchId),
    currenciesOf(db, branchId),
    availableInBranch(db, branchId),
  ]);
  const exchanges = new Map(exchangeRows.map((e) => [e.id, e]));
  const currencies = new Map(currencyRows.map((c) => [c.id, c]));
  const live = offers.filter((o) => o.is_active && exchanges.get(o.exchange_id)?.is_active);
  const offered = new Set(live.flatMap((o) => [o.currency1_id, o.currency2_id]));
  return {
    exchanges,
    offers,
    currencies,
    available,
    publicExchanges: exchangeRows.map(present.publicExchange),
    publicCurrencies: currencyRows.filter((c) => offered.has(c.id)).map(present.publicCurrency),
    rates: live.map((o) => {
      const c1 = currencies.get(o.currency1_id)!;
      const c2 = currencies.get(o.currency2_id)!;
      return {
        id: o.id,
        exchange_id: o.exchange_id,
        rate: o.rate,
        min_amount: o.min_amount,
        max_amount: o.max_amount,
        updated_at: o.updated_at,
        c1_id: c1.id,
        c1_code: c1.code,
        c2_id: c2.id,
        c2_code: c2.code,
        c2_decimals: c2.decimals,
        available: available.get(positionKey(o.exchange_id, c2.id)),
      };
    }),
  };
}
