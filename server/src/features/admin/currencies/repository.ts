import type { Executor } from '../../../db/database.js';
import { pageQuery, type ListParams } from '../../../db/list.js';
import type { UpdateCurrencyInput } from './schemas.js';

export const CURRENCY_COLUMNS: Record<string, string> = {
  id: 'id', ticker: 'code', name: 'name', kind: 'kind', decimals: 'decimals', createdAt: 'created_at', updatedAt: 'updated_at',
};

const VIEW = ['id', 'code', 'name', 'kind', 'decimals', 'image_id', 'image_path', 'created_at', 'updated_at'] as const;

export type CurrencyRow = NonNullable<Awaited<ReturnType<typeof findCurrency>>>;

export function findCurrency(db: Executor, id: number) {
  return db.selectFrom('currencies').select(VIEW).where('id', '=', id).executeTakeFirst();
}

// Currencies are shared by every branch: the list has no scope.
const currenciesPage = pageQuery((db, _: Record<string, never>) => db.selectFrom('currencies'), CURRENCY_COLUMNS, (qb) => qb.select(VIEW));

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
    updated_at: new Date(),
  };
}

export function insertCurrency(db: Executor, v: UpdateCurrencyInput & { ticker: string; name: string; decimals: number }) {
  return db.insertInto('currencies').values({ ...columns(v), code: v.ticker, name: v.name.trim(), decimals: v.decimals }).returning(VIEW).executeTakeFirstOrThrow();
}

export function updateCurrency(db: Executor, id: number, v: UpdateCurrencyInput) {
  return db.updateTable('currencies').set(columns(v)).where('id', '=', id).returning(VIEW).executeTakeFirst();
}
