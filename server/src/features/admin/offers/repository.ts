import type { Executor } from '../../../db/database.js';
import { inScope, type Scope } from '../../../db/scope.js';
import type { OfferAmounts } from './amounts.js';

/** An offer with the codes and names of its currencies and the branch of its exchange. */
export function findOfferView(db: Executor, id: number) {
  return db.selectFrom('offers as o')
    .innerJoin('exchanges as e', 'e.id', 'o.exchange_id')
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .select(['o.id', 'o.exchange_id', 'e.branch_id', 'o.rate', 'o.min_amount', 'o.max_amount', 'o.is_active', 'o.created_at', 'o.updated_at',
      'c1.id as c1_id', 'c1.code as c1_code', 'c1.name as c1_name', 'c2.id as c2_id', 'c2.code as c2_code', 'c2.name as c2_name'])
    .where('o.id', '=', id)
    .executeTakeFirstOrThrow();
}

export type OfferViewRow = Awaited<ReturnType<typeof findOfferView>>;

/** The offer if it is in scope, its row locked so that concurrent changes apply (and are reported) in order. */
export function lockOffer(db: Executor, scope: Scope, id: number) {
  return inScope(db.selectFrom('offers as o').innerJoin('exchanges as e', 'e.id', 'o.exchange_id'), scope, { branch: 'e.branch_id' })
    .select(['o.id', 'o.rate', 'o.min_amount', 'o.max_amount'])
    .where('o.id', '=', id)
    .forUpdate('o')
    .executeTakeFirst();
}

export function currenciesByIds(db: Executor, ids: number[]) {
  return db.selectFrom('currencies').select(['id']).where('id', 'in', ids).execute();
}

export async function insertOffer(db: Executor, v: OfferAmounts & { exchangeId: number; currency1Id: number; currency2Id: number; isActive: boolean }) {
  const row = await db.insertInto('offers').values({
    exchange_id: v.exchangeId, currency1_id: v.currency1Id, currency2_id: v.currency2Id,
    rate: v.rate, min_amount: v.minAmount, max_amount: v.maxAmount, is_active: v.isActive, updated_at: new Date(),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateOffer(db: Executor, id: number, v: OfferAmounts & { isActive?: boolean }) {
  await db.updateTable('offers').set({
    rate: v.rate, min_amount: v.minAmount, max_amount: v.maxAmount,
    ...(v.isActive !== undefined && { is_active: v.isActive }),
    updated_at: new Date(),
  }).where('id', '=', id).execute();
}
