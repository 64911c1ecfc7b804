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
    .where('o.pricing_state', '=', 'active')
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

/** The pricing columns of an offer, as the back office shows them. */
const PRICING_COLUMNS = [
  'o.pricing_mode',
  'o.rate_source_id',
  'o.pricing_base',
  'o.pricing_quote',
  'o.margin_percent',
  'o.rate_decimals',
  'o.rate_floor',
  'o.rate_ceiling',
  'o.max_jump_percent',
  'o.pricing_state',
  'o.suspended_reason',
  'o.reference_rate',
  'o.reference_at',
] as const;

const offersPage = pageQuery(
  (db, scope: Scope) => offersInScope(db, scope),
  OFFER_COLUMNS,
  (qb) =>
    qb
      .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
      .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
      .select(PRICING_COLUMNS)
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

/** Partners never see a suspended offer (docs/rates.md, "Safety stops"). */
const partnerOffersPage = pageQuery(
  (db, scope: Scope) => offersInScope(db, scope).where('o.pricing_state', '=', 'active'),
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

export function listPartnerOffers(db: Executor, scope: Scope, params: ListParams) {
  return partnerOffersPage(db, scopeValues(scope), params);
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
        .on('o.pricing_state', '=', 'active')
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
      'o.reference_rate',
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
    .select(PRICING_COLUMNS)
    .where('o.id', '=', id)
    .executeTakeFirstOrThrow();
}

export type OfferViewRow = Awaited<ReturnType<typeof findOfferDetail>>;

/** The offer if it is in scope, its row locked so that concurrent changes apply (and are reported) in order. */
export function lockOffer(db: Executor, scope: Scope, id: number) {
  return inScope(db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'), scope, {
    branch: 'e.branch_id',
  })
    .select(['o.id', 'o.exchange_id', 'o.rate', 'o.min_amount', 'o.max_amount', 'e.branch_id'])
    .select(PRICING_COLUMNS)
    .where('o.id', '=', id)
    .forUpdate('o')
    .executeTakeFirst();
}

/** How an offer's rate is made, as its columns hold it (all null for a fixed offer). */
export interface PricingColumns {
  pricing_mode: 'fixed' | 'source';
  rate_source_id: number | null;
  pricing_base: string | null;
  pricing_quote: string | null;
  margin_percent: string | null;
  rate_decimals: number | null;
  rate_floor: string | null;
  rate_ceiling: string | null;
  max_jump_percent: string | null;
  pricing_state: 'active' | 'suspended';
  suspended_reason: 'stale' | 'jump' | null;
  reference_rate: string | null;
  reference_at: Date | null;
}

export async function insertOffer(
  db: Executor,
  v: OfferAmounts & { exchangeId: number; currency1Id: number; currency2Id: number; isActive: boolean },
  pricing: PricingColumns,
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
      ...pricing,
      updated_at: sql<Date>`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateOffer(
  db: Executor,
  id: number,
  v: OfferAmounts & { isActive?: boolean },
  pricing?: Partial<PricingColumns>,
) {
  await db
    .updateTable('offers')
    .set({
      rate: v.rate,
      min_amount: v.minAmount,
      max_amount: v.maxAmount,
      ...(v.isActive !== undefined && { is_active: v.isActive }),
      ...pricing,
      // Not now(), the transaction's start: a change that waited for the row's lock would read older than the one it
      // waited for. Each change of an offer is at least 1 ms after the last (updatedAt has ms), so offer.updated's updatedAt orders its deliveries.
      updated_at: sql<Date>`greatest(clock_timestamp(), updated_at + interval '1 millisecond')`,
    })
    .where('id', '=', id)
    .execute();
}

/** A rate source of the exchange's branch, with the quotes of its last successful read (null before the first). */
export function findRateSource(db: Executor, exchangeId: number, sourceId: number) {
  return db
    .selectFrom('rate_sources as s')
    .innerJoin('exchanges as e', 'e.branch_id', 's.branch_id')
    .select(['s.id', 's.last_quotes'])
    .where('s.id', '=', sourceId)
    .where('e.id', '=', exchangeId)
    .executeTakeFirst();
}

/** The offers priced from a source, locked for their re-pricing, with the source's age limit. */
export function lockOffersOfSource(db: Executor, sourceId: number) {
  return db
    .selectFrom('offers as o')
    .innerJoin('rate_sources as s', 's.id', 'o.rate_source_id')
    .select(['o.id', 'o.rate', 'o.is_active', 's.max_age_seconds'])
    .select(PRICING_COLUMNS)
    .where('o.rate_source_id', '=', sourceId)
    .where('o.pricing_mode', '=', 'source')
    .orderBy('o.id')
    .forUpdate('o')
    .execute();
}

export type SourcedOfferRow = Awaited<ReturnType<typeof lockOffersOfSource>>[number];

/** What one re-pricing sets on an offer; `changed` moves its updatedAt (its rate or its state changed). */
export interface Repriced {
  id: number;
  rate: string;
  referenceRate: string | null;
  referenceAt: Date | null;
  state: 'active' | 'suspended';
  reason: 'stale' | 'jump' | null;
  changed: boolean;
}

/** One statement for every offer of a re-pricing. */
export async function applyRepriced(db: Executor, rows: readonly Repriced[]) {
  if (rows.length === 0) return;
  const col = <K extends keyof Repriced>(k: K) => rows.map((r) => r[k]);
  await sql`
    update offers o
    set rate = v.rate, reference_rate = v.reference_rate, reference_at = v.reference_at,
        pricing_state = v.state, suspended_reason = v.reason,
        updated_at = case when v.changed then greatest(clock_timestamp(), o.updated_at + interval '1 millisecond')
          else o.updated_at end
    from unnest(${col('id')}::int[], ${col('rate')}::numeric[], ${col('referenceRate')}::numeric[],
      ${col('referenceAt').map((d) => d?.toISOString() ?? null)}::timestamptz[], ${col('state')}::text[],
      ${col('reason')}::text[], ${col('changed')}::boolean[])
      as v(id, rate, reference_rate, reference_at, state, reason, changed)
    where o.id = v.id`.execute(db);
}

/** Suspends the source's priced offers that are not yet suspended; returns their ids. */
export async function suspendActiveOfSource(db: Executor, sourceId: number, reason: 'stale' | 'jump') {
  const rows = await db
    .updateTable('offers')
    .set({
      pricing_state: 'suspended',
      suspended_reason: reason,
      updated_at: sql<Date>`greatest(clock_timestamp(), updated_at + interval '1 millisecond')`,
    })
    .where('rate_source_id', '=', sourceId)
    .where('pricing_mode', '=', 'source')
    .where('pricing_state', '=', 'active')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Offers with their currencies and branch, as findOfferDetail reads one. */
export function findOfferDetails(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
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
      'o.pricing_state',
      'o.updated_at',
      'c1.id as c1_id',
      'c1.code as c1_code',
      'c2.id as c2_id',
      'c2.code as c2_code',
    ])
    .where('o.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .orderBy('o.id')
    .execute();
}

/** Rate history rows, one statement however many. */
export async function insertRateHistory(
  db: Executor,
  rows: readonly { offerId: number; rate: string; referenceRate: string | null }[],
) {
  if (rows.length === 0) return;
  await sql`
    insert into offer_rates (offer_id, rate, reference_rate, created_at)
    select v.offer_id, v.rate, v.reference_rate, clock_timestamp()
    from unnest(${rows.map((r) => r.offerId)}::int[], ${rows.map((r) => r.rate)}::numeric[],
      ${rows.map((r) => r.referenceRate)}::numeric[]) as v(offer_id, rate, reference_rate)`.execute(db);
}

/** The offer's applied rates in [from, to], the last `limit` of them, oldest first; null when out of scope. */
export async function rateHistory(db: Executor, scope: Scope, id: number, from: Date, to: Date, limit: number) {
  const offer = await offersInScope(db, scope).select('o.id').where('o.id', '=', id).executeTakeFirst();
  if (!offer) return null;
  const rows = await db
    .selectFrom('offer_rates')
    .select(['created_at', 'rate', 'reference_rate'])
    .where('offer_id', '=', id)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit).reverse(), truncated: rows.length > limit };
}

/** Deletes rate history older than `days`, in batches, as pruneDeliveries does. */
export async function pruneOfferRates(db: Executor, days: number, batch = 1000, maxBatches = 20): Promise<number> {
  let pruned = 0;
  for (let i = 0; i < maxBatches; i++) {
    const result = await sql`
      delete from offer_rates where id in (
        select id from offer_rates where created_at < now() - make_interval(days => ${days})
        order by created_at limit ${batch})`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

/** Suspended offers by reason, every branch (the metrics' gauge). */
export function countSuspended(db: Executor) {
  return db
    .selectFrom('offers')
    .select(['suspended_reason', sql<number>`count(*)::int`.as('n')])
    .where('pricing_state', '=', 'suspended')
    .groupBy('suspended_reason')
    .execute();
}
