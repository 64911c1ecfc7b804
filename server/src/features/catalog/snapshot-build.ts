import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { publicSchedule } from '../exchanges/repository.js';
import type { listRates } from '../offers/repository.js';
import * as present from './presenters.js';

/**
 * One branch's catalogue as partners read it: every exchange with its public schedule, every offer with the
 * currencies they name, and the answers that depend on nothing else, made once. Rows carry the columns and
 * types of the queries they replace, so the same presenters give byte-identical bodies.
 */
export interface BranchCatalog {
  exchanges: Map<number, SnapshotExchange>;
  /** Every offer of the branch, active or not, in id order. */
  offers: SnapshotOffer[];
  currencies: Map<number, SnapshotCurrency>;
  publicExchanges: ReturnType<typeof present.publicExchange>[];
  publicCurrencies: ReturnType<typeof present.publicCurrency>[];
  /** Active offers of active exchanges, in id order, as listRates reads them. */
  rates: RateRow[];
}

export type RateRow = Awaited<ReturnType<typeof listRates>>[number];
export type SnapshotExchange = Awaited<ReturnType<typeof exchangesOf>>[number];
export type SnapshotOffer = Awaited<ReturnType<typeof offersOf>>[number];
export type SnapshotCurrency = Awaited<ReturnType<typeof currenciesOf>>[number];

function exchangesOf(db: Executor, branchId: number) {
  return db.selectFrom('exchanges as e')
    .select(['e.id', 'e.name', 'e.is_active', 'e.address', 'e.city', 'e.phone_number', 'e.chat_url', 'e.latitude', 'e.longitude',
      'e.timezone', 'e.created_at', 'e.updated_at'])
    .select(publicSchedule(sql.ref('e.id')).as('schedule'))
    .where('e.branch_id', '=', branchId)
    .orderBy('e.id')
    .execute();
}

/**
 * The key columns of the offers list as text, as db/keyset.ts writes them into a cursor, and the timestamps
 * also as fixed-width UTC digits to order by (a Date drops the microseconds that order two offers apart).
 */
function offersOf(db: Executor, branchId: number) {
  return db.selectFrom('offers as o')
    .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
    .select(['o.id', 'o.exchange_id', 'o.currency1_id', 'o.currency2_id', 'o.rate', 'o.min_amount', 'o.max_amount', 'o.is_active', 'o.created_at', 'o.updated_at'])
    .select([
      sql<string>`o.created_at::text`.as('created_text'), sql<string>`o.updated_at::text`.as('updated_text'),
      sql<string>`to_char(o.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`.as('created_order'),
      sql<string>`to_char(o.updated_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`.as('updated_order'),
    ])
    .where('e.branch_id', '=', branchId)
    .orderBy('o.id')
    .execute();
}

function currenciesOf(db: Executor, branchId: number) {
  const named = db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
    .where('e.branch_id', '=', branchId)
    .select(sql<number>`unnest(array[o.currency1_id, o.currency2_id])`.as('currency_id'));
  return db.selectFrom('currencies as c')
    .select(['c.id', 'c.name', 'c.code', 'c.decimals', 'c.is_active', 'c.image_id', 'c.image_path'])
    .where('c.id', 'in', named)
    .orderBy('c.id')
    .execute();
}

/** Reads a branch's catalogue (three queries) and makes its fixed answers. */
export async function buildCatalog(db: Executor, branchId: number): Promise<BranchCatalog> {
  const [exchangeRows, offers, currencyRows] = await Promise.all([exchangesOf(db, branchId), offersOf(db, branchId), currenciesOf(db, branchId)]);
  const exchanges = new Map(exchangeRows.map((e) => [e.id, e]));
  const currencies = new Map(currencyRows.map((c) => [c.id, c]));
  const live = offers.filter((o) => o.is_active && exchanges.get(o.exchange_id)?.is_active);
  const offered = new Set(live.flatMap((o) => [o.currency1_id, o.currency2_id]));
  return {
    exchanges,
    offers,
    currencies,
    publicExchanges: exchangeRows.map(present.publicExchange),
    publicCurrencies: currencyRows.filter((c) => offered.has(c.id)).map(present.publicCurrency),
    rates: live.map((o) => {
      const c1 = currencies.get(o.currency1_id)!;
      const c2 = currencies.get(o.currency2_id)!;
      return {
        id: o.id, exchange_id: o.exchange_id, rate: o.rate, min_amount: o.min_amount, max_amount: o.max_amount, updated_at: o.updated_at,
        c1_id: c1.id, c1_code: c1.code, c2_id: c2.id, c2_code: c2.code, c2_decimals: c2.decimals,
      };
    }),
  };
}
