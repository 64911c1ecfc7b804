import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { memoQuery } from '../../db/memo.js';
import { inScope, scopeValues, type ScopeValues, type Scope } from '../../db/scope.js';

/** Opening hours as JSON, ordered by day; closed days without hours read 00:00. */
const scheduleJson = (exchangeId: ReturnType<typeof sql.ref>) => sql<ScheduleRow[]>`coalesce((
  select json_agg(json_build_object(
    'dayOfWeek', s.day_of_week,
    'openTime', coalesce(to_char(s.open_time, 'HH24:MI'), '00:00'),
    'closeTime', coalesce(to_char(s.close_time, 'HH24:MI'), '00:00'),
    'isClosed', s.is_closed) order by s.day_of_week)
  from exchange_schedule s where s.exchange_id = ${exchangeId}), '[]'::json)`;

export interface ScheduleRow { dayOfWeek: number; openTime: string; closeTime: string; isClosed: boolean }

const exchangesQuery = memoQuery((db, scope: ScopeValues) =>
  inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id', exchange: 'e.id' })
    .select(['e.id', 'e.name', 'e.is_active', 'e.address', 'e.phone_number', 'e.chat_url', 'e.latitude', 'e.longitude'])
    .select(scheduleJson(sql.ref('e.id')).as('schedule'))
    .orderBy('e.id'));

export function listExchanges(db: Executor, scope: Scope) {
  return exchangesQuery(db, scopeValues(scope));
}

export function findExchange(db: Executor, scope: Scope, id: number) {
  return inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id', exchange: 'e.id' })
    .select(['e.id', 'e.name', 'e.address', 'e.city', 'e.is_active', 'e.timezone', 'e.created_at', 'e.updated_at'])
    .select(scheduleJson(sql.ref('e.id')).as('schedule'))
    .where('e.id', '=', id)
    .executeTakeFirst();
}

/** The currencies of active offers of active exchanges in scope. */
export function listOfferedCurrencies(db: Executor, scope: Scope) {
  const offered = inScope(
    db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'),
    scope, { branch: 'e.branch_id', exchange: 'e.id' },
  )
    .where('o.is_active', '=', true)
    .where('e.is_active', '=', true)
    .select(sql<number>`unnest(array[o.currency1_id, o.currency2_id])`.as('currency_id'));
  return db.selectFrom('currencies as c')
    .select(['c.id', 'c.name', 'c.code', 'c.image_id', 'c.image_path'])
    .where('c.id', 'in', offered)
    .orderBy('c.id')
    .execute();
}

export interface RateFilter { exchangeId?: number; sourceCurrencyId?: number; destCurrencyId?: number }

export function listRates(db: Executor, scope: Scope, f: RateFilter) {
  let q = inScope(
    db.selectFrom('offers as o')
      .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
      .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
      .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id'),
    scope, { branch: 'e.branch_id', exchange: 'e.id' },
  )
    .where('o.is_active', '=', true)
    .where('e.is_active', '=', true)
    .select(['o.id', 'o.exchange_id', 'o.rate', 'o.min_amount', 'o.max_amount', 'o.updated_at',
      'c1.id as c1_id', 'c1.code as c1_code', 'c2.id as c2_id', 'c2.code as c2_code'])
    .orderBy('o.id');
  if (f.exchangeId !== undefined) q = q.where('o.exchange_id', '=', f.exchangeId);
  if (f.sourceCurrencyId !== undefined) q = q.where('o.currency1_id', '=', f.sourceCurrencyId);
  if (f.destCurrencyId !== undefined) q = q.where('o.currency2_id', '=', f.destCurrencyId);
  return q.execute();
}

export const OFFER_COLUMNS: Record<string, string> = {
  id: 'o.id', isActive: 'o.is_active', exchangeId: 'o.exchange_id', currency1Id: 'o.currency1_id', currency2Id: 'o.currency2_id',
  rate: 'o.rate', minAmount: 'o.min_amount', maxAmount: 'o.max_amount', createdAt: 'o.created_at', updatedAt: 'o.updated_at',
};

function offersInScope(db: Executor, scope: Scope) {
  return inScope(db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'), scope, { branch: 'e.branch_id', exchange: 'e.id' });
}

const offersPage = pageQuery((db, scope: Scope) => offersInScope(db, scope), OFFER_COLUMNS, (qb) => qb
  .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
  .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
  .select(['o.id', 'o.exchange_id', 'o.rate', 'o.min_amount', 'o.max_amount', 'o.is_active', 'o.created_at', 'o.updated_at',
    'c1.id as c1_id', 'c1.code as c1_code', 'c1.name as c1_name', 'c2.id as c2_id', 'c2.code as c2_code', 'c2.name as c2_name']));

export function listOffers(db: Executor, scope: Scope, params: ListParams) {
  return offersPage(db, scopeValues(scope), params);
}

/**
 * The offer an estimate or order is priced with: the active source→dest offer of an active exchange in
 * scope, else the active dest→source one (reverse). Returns the exchange even when no offer matches.
 */
export async function findPricing(db: Executor, scope: Scope, exchangeId: number, sourceId: number, destId: number) {
  const rows = await pricingQuery(db, { branchId: scope.branchId, exchangeIds: scope.exchangeIds, exchangeId, sourceId, destId });
  return rows[0];
}

export type PricingRow = NonNullable<Awaited<ReturnType<typeof findPricing>>>;

const pricingQuery = memoQuery((db, p: ScopeValues & { exchangeId: number; sourceId: number; destId: number }) =>
  inScope(db.selectFrom('exchanges as e'), p, { branch: 'e.branch_id', exchange: 'e.id' })
    .leftJoin('offers as o', (join) => join
      .onRef('o.exchange_id', '=', 'e.id')
      .on('o.is_active', '=', true)
      .on((eb) => eb.or([
        eb.and([eb('o.currency1_id', '=', p.sourceId), eb('o.currency2_id', '=', p.destId)]),
        eb.and([eb('o.currency1_id', '=', p.destId), eb('o.currency2_id', '=', p.sourceId)]),
      ])))
    .select(['e.id as exchange_id', 'e.is_active as exchange_active', 'o.id as offer_id', 'o.currency1_id', 'o.rate', 'o.min_amount', 'o.max_amount'])
    .where('e.id', '=', p.exchangeId)
    .orderBy(sql`o.currency1_id = ${p.sourceId}`, 'desc')
    .limit(1));

const currenciesQuery = memoQuery((db, p: { ids: number[] }) => db.selectFrom('currencies')
  .select(['id', 'name', 'code', 'decimals', 'image_id', 'image_path'])
  .where(sql<boolean>`id = any(${p.ids}::int[])`));

export function findCurrencies(db: Executor, ids: number[]) {
  return currenciesQuery(db, { ids });
}
