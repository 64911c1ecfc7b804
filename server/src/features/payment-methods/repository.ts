import { sql } from 'kysely';
import { branchScope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { inScope, scopeCondition, scopeValues, type Scope } from '../../db/scope.js';
import type { PaymentMethodKind } from './schemas.js';

const COLUMNS: Record<string, string> = {
  id: 'p.id', name: 'p.name', kind: 'p.kind', exchangeId: 'p.exchange_id', currencyId: 'p.currency_id', isActive: 'p.is_active',
  branchId: 'p.branch_id', createdAt: 'p.created_at', updatedAt: 'p.updated_at',
};

export type PaymentMethodRow = {
  id: number; branch_id: number; name: string; kind: string; exchange_id: number | null; currency_id: number | null;
  is_active: boolean; created_at: Date; updated_at: Date;
};

const methodsPage = pageQuery((db, scope: Scope) => inScope(db.selectFrom('payment_methods as p'), scope, { branch: 'p.branch_id' }), COLUMNS, (qb) => qb.selectAll('p'));

export function listPaymentMethods(db: Executor, scope: Scope, params: ListParams) {
  return methodsPage(db, scopeValues(scope), params);
}

export interface NewPaymentMethod {
  branchId: number; name: string; kind: PaymentMethodKind; exchangeId: number | null; currencyId: number | null; isActive: boolean;
}

export function insertPaymentMethod(db: Executor, m: NewPaymentMethod) {
  return db.insertInto('payment_methods').values({
    branch_id: m.branchId, name: m.name, kind: m.kind, exchange_id: m.exchangeId, currency_id: m.currencyId, is_active: m.isActive, updated_at: sql<Date>`now()`,
  }).returningAll().executeTakeFirstOrThrow();
}

/** A method of the scope's branch, locked for a change. */
export function lockPaymentMethod(db: Executor, scope: Scope, id: number) {
  return db.selectFrom('payment_methods').selectAll().where('id', '=', id)
    .where(scopeCondition(branchScope(scope), { branch: 'branch_id' })).forUpdate().executeTakeFirst();
}

/** Changes a method of the scope's branch; undefined when it is not there or out of scope. */
export function updatePaymentMethod(db: Executor, scope: Scope, id: number, patch: { name?: string; kind?: PaymentMethodKind; isActive?: boolean }) {
  return db.updateTable('payment_methods')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.kind !== undefined ? { kind: patch.kind } : {}),
      ...(patch.isActive !== undefined ? { is_active: patch.isActive } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where(scopeCondition(branchScope(scope), { branch: 'branch_id' }))
    .returningAll()
    .executeTakeFirst();
}

/** Payment methods of the key's branch, either branch-wide (no exchange) or of an exchange in scope. */
export function findPaymentMethods(db: Executor, scope: Scope, ids: number[]) {
  const branchWide = sql<boolean>`(pm.exchange_id is null and ${scopeCondition(branchScope(scope), { branch: 'pm.branch_id' })})`;
  return db.selectFrom('payment_methods as pm')
    .select(['pm.id', 'pm.branch_id', 'pm.exchange_id', 'pm.currency_id', 'pm.is_active'])
    .where('pm.id', 'in', ids)
    .where(sql<boolean>`(${branchWide} or ${scopeCondition(scope, { branch: 'pm.branch_id', exchange: 'pm.exchange_id' })})`)
    .execute();
}
