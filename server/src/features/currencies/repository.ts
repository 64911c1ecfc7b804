import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { memoQuery } from '../../db/memo.js';
import { inScope, type Scope } from '../../db/scope.js';
import type { UpdateCurrencyInput } from './schemas.js';

// Currencies are shared by every branch: they carry no scope of their own.

/** Currencies by id, as the estimate and a new order need them. Memoized: every one of them reads two. */
export function findCurrencies(db: Executor, ids: number[]) {
  return currenciesQuery(db, { ids });
}

const currenciesQuery = memoQuery((db, p: { ids: number[] }) =>
  db
    .selectFrom('currencies')
    .select(['id', 'name', 'code', 'decimals', 'is_active', 'image_id', 'image_path'])
    .where(sql<boolean>`id = any(${p.ids}::int[])`),
);

/** The currencies of active, not suspended offers of active exchanges in scope. */
export function listOfferedCurrencies(db: Executor, scope: Scope) {
  const offered = inScope(db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'), scope, {
    branch: 'e.branch_id',
    exchange: 'e.id',
  })
    .where('o.is_active', '=', true)
    .where('o.pricing_state', '=', 'active')
    .where('e.is_active', '=', true)
    .select(sql<number>`unnest(array[o.currency1_id, o.currency2_id])`.as('currency_id'));
  return db
    .selectFrom('currencies as c')
    .select(['c.id', 'c.name', 'c.code', 'c.image_id', 'c.image_path'])
    .where('c.id', 'in', offered)
    .orderBy('c.id')
    .execute();
}

export const CURRENCY_COLUMNS: Record<string, string> = {
  id: 'id',
  ticker: 'code',
  name: 'name',
  kind: 'kind',
  decimals: 'decimals',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const VIEW = ['id', 'code', 'name', 'kind', 'decimals', 'image_id', 'image_path', 'created_at', 'updated_at'] as const;

export type CurrencyRow = NonNullable<Awaited<ReturnType<typeof findCurrency>>>;

export function findCurrency(db: Executor, id: number) {
  return db.selectFrom('currencies').select(VIEW).where('id', '=', id).executeTakeFirst();
}

const currenciesPage = pageQuery(
  (db, _: Record<string, never>) => db.selectFrom('currencies'),
  CURRENCY_COLUMNS,
  (qb) => qb.select(VIEW),
);

export function listCurrencies(db: Executor, params: ListParams) {
  return currenciesPage(db, {}, params);
}

function columns(v: UpdateCurrencyInput) {
  return {
    ...(v.ticker !== undefined && { code: v.ticker }),
    ...(v.name !== undefined && { name: v.name.trim() }),
    ...(v.decimals !== undefined && { decimals: v.decimals }),
    ...(v.kind !== undefined && { kind: v.kind }),
    ...(v.image !== undefined && { image_id: v.image?.id ?? null, image_path: v.image?.path ?? null }),
    updated_at: sql<Date>`now()`,
  };
}

export function insertCurrency(
  db: Executor,
  v: UpdateCurrencyInput & { ticker: string; name: string; decimals: number },
) {
  return db
    .insertInto('currencies')
    .values({ ...columns(v), code: v.ticker, name: v.name.trim(), decimals: v.decimals })
    .returning(VIEW)
    .executeTakeFirstOrThrow();
}

export function updateCurrency(db: Executor, id: number, v: UpdateCurrencyInput) {
  return db.updateTable('currencies').set(columns(v)).where('id', '=', id).returning(VIEW).executeTakeFirst();
}
