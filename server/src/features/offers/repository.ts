import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { memoQuery } from '../../db/memo.js';
import { inScope, scopeValues, type Scope, type ScopeValues } from '../../db/scope.js';
import type { OfferAmounts } from './amounts.js';

export interface RateFilter {
  exchangeId?: number;
  sourceCurrencyId?: number;
  destCurrencyId?: number;
}

export function listRates(db: Executor, scope: Scope, f: RateFilter) {
  let q = inScope(
    db
      .selectFrom('offers as o')
      .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
      .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
      .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id'),
    scope,
    { branch: 'e.branch_id', exchange: 'e.id' },
  )
    .where('o.is_active', '=', true)
    .where('e.is_active', '=', true)
    .select([
      'o.id',
      'o.exchange_id',
      'o.rate',
      'o.min_amount',
      'o.max_amount',
      'o.updated_at',
      'c1.id as c1_id',
      'c1.code as c1_code',
      'c2.id as c2_id',
      'c2.code as c2_code',
      'c2.decimals as c2_decimals',
    ])
    .orderBy('o.id');
  if (f.exchangeId !== undefined) q = q.where('o.exchange_id', '=', f.exchangeId);
  if (f.sourceCurrencyId !== undefined) q = q.where('o.currency1_id', '=', f.sourceCurrencyId);
  if (f.destCurrencyId !== undefined) q = q.where('o.currency2_id', '=', f.destCurrencyId);
  return q.execute();
}

export const OFFER_COLUMNS: Record<string, string> = {
  id: 'o.id',
  isActive: 'o.is_active',
  exchangeId: 'o.exchange_id',
  currency1Id: 'o.currency1_id',
  currency2Id: 'o.currency2_id',
  rate: 'o.rate',
  minAmount: 'o.min_amount',
  maxAmount: 'o.max_amount',
  createdAt: 'o.created_at',
  updatedAt: 'o.updated_at',
};

function offersInScope(db: Executor, scope: Scope) {
  return inScope(db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'), scope, {
    branch: 'e.branch_id',
    exchange: 'e.id',
  });
}

const offersPage = pageQuery(
  (db, scope: Scope) => offersInScope(db, scope),
  OFFER_COLUMNS,
  (qb) =>
    qb
      .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
      .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
      .select([
        'o.id',
        'o.exchange_id',
        'o.rate',
        'o.min_amount',
        'o.max_amount',
        'o.is_active',
        'o.created_at',
        'o.updated_at',
        'c1.id as c1_id',
        'c1.code as c1_code',
        'c1.name as c1_name',
        'c2.id as c2_id',
        'c2.code as c2_code',
        'c2.name as c2_name',
        'c2.decimals as c2_decimals',
      ]),
);

export function listOffers(db: Executor, scope: Scope, params: ListParams) {
  return offersPage(db, scopeValues(scope), params);
}

/**
 * The offer an estimate or order is priced with: the active source→dest offer of an active exchange in
 * scope, else the active dest→source one (reverse). Returns the exchange even when no offer matches.
 */
export async function findPricing(db: Executor, scope: Scope, exchangeId: number, sourceId: number, destId: number) {
  const rows = await pricingQuery(db, {
    branchId: scope.branchId,
    exchangeIds: scope.exchangeIds,
    exchangeId,
    sourceId,
    destId,
  });
  return rows[0];
}

export type PricingRow = NonNullable<Awaited<ReturnType<typeof findPricing>>>;

const pricingQuery = memoQuery((db, p: ScopeValues & { exchangeId: number; sourceId: number; destId: number }) =>
  inScope(db.selectFrom('exchanges as e'), p, { branch: 'e.branch_id', exchange: 'e.id' })
    .leftJoin('offers as o', (join) =>
      join
        .onRef('o.exchange_id', '=', 'e.id')
        .on('o.is_active', '=', true)
        .on((eb) =>
          eb.or([
            eb.and([eb('o.currency1_id', '=', p.sourceId), eb('o.currency2_id', '=', p.destId)]),
            eb.and([eb('o.currency1_id', '=', p.destId), eb('o.currency2_id', '=', p.sourceId)]),
          ]),
        ),
    )
    .select([
      'e.id as exchange_id',
      'e.is_active as exchange_active',
      'o.id as offer_id',
      'o.currency1_id',
      'o.rate',
      'o.min_amount',
      'o.max_amount',
    ])
    .where('e.id', '=', p.exchangeId)
    .orderBy(sql`o.currency1_id = ${p.sourceId}`, 'desc')
    .limit(1),
);

/** An offer with the codes and names of its currencies and the branch of its exchange. */
export function findOfferDetail(db: Executor, id: number) {
  return db
    .selectFrom('offers as o')
    .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .select([
      'o.id',
      'o.exchange_id',
      'e.branch_id',
      'o.rate',
      'o.min_amount',
      'o.max_amount',
      'o.is_active',
      'o.created_at',
      'o.updated_at',
      'c1.id as c1_id',
      'c1.code as c1_code',
      'c1.name as c1_name',
      'c2.id as c2_id',
      'c2.code as c2_code',
      'c2.name as c2_name',
    ])
    .where('o.id', '=', id)
    .executeTakeFirstOrThrow();
}

export type OfferViewRow = Awaited<ReturnType<typeof findOfferDetail>>;

/** The offer if it is in scope, its row locked so that concurrent changes apply (and are reported) in order. */
export function lockOffer(db: Executor, scope: Scope, id: number) {
  return inScope(db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'), scope, {
    branch: 'e.branch_id',
  })
    .select(['o.id', 'o.rate', 'o.min_amount', 'o.max_amount'])
    .where('o.id', '=', id)
    .forUpdate('o')
    .executeTakeFirst();
}

export async function insertOffer(
  db: Executor,
  v: OfferAmounts & { exchangeId: number; currency1Id: number; currency2Id: number; isActive: boolean },
) {
  const row = await db
    .insertInto('offers')
    .values({
      exchange_id: v.exchangeId,
      currency1_id: v.currency1Id,
      currency2_id: v.currency2Id,
      rate: v.rate,
      min_amount: v.minAmount,
      max_amount: v.maxAmount,
      is_active: v.isActive,
      updated_at: sql<Date>`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateOffer(db: Executor, id: number, v: OfferAmounts & { isActive?: boolean }) {
  await db
    .updateTable('offers')
    .set({
      rate: v.rate,
      min_amount: v.minAmount,
      max_amount: v.maxAmount,
      ...(v.isActive !== undefined && { is_active: v.isActive }),
      // Not now(), the transaction's start: a change that waited for the row's lock would read older than the one it
      // waited for. Each change of an offer is at least 1 ms after the last (updatedAt has ms), so offer.updated's updatedAt orders its deliveries.
      updated_at: sql<Date>`greatest(clock_timestamp(), updated_at + interval '1 millisecond')`,
    })
    .where('id', '=', id)
    .execute();
}
