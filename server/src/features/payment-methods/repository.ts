import { sql } from 'kysely';
import { branchScope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { inScope, scopeCondition, scopeValues, type Scope } from '../../db/scope.js';
import type { PaymentMethodKind } from './schemas.js';

const COLUMNS: Record<string, string> = {
  id: 'p.id',
  name: 'p.name',
  kind: 'p.kind',
  exchangeId: 'p.exchange_id',
  currencyId: 'p.currency_id',
  isActive: 'p.is_active',
  branchId: 'p.branch_id',
  createdAt: 'p.created_at',
  updatedAt: 'p.updated_at',
};

export type PaymentMethodRow = {
  id: number;
  branch_id: number;
  name: string;
  kind: string;
  exchange_id: number | null;
  currency_id: number | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
};

const methodsPage = pageQuery(
  (db, scope: Scope) => inScope(db.selectFrom('payment_methods as p'), scope, { branch: 'p.branch_id' }),
  COLUMNS,
  (qb) => qb.selectAll('p'),
);

export function listPaymentMethods(db: Executor, scope: Scope, params: ListParams) {
  return methodsPage(db, scopeValues(scope), params);
}

export interface NewPaymentMethod {
  branchId: number;
  name: string;
  kind: PaymentMethodKind;
  exchangeId: number | null;
  currencyId: number | null;
  isActive: boolean;
}

export function insertPaymentMethod(db: Executor, m: NewPaymentMethod) {
  return db
    .insertInto('payment_methods')
    .values({
      branch_id: m.branchId,
      name: m.name,
      kind: m.kind,
      exchange_id: m.exchangeId,
      currency_id: m.currencyId,
      is_active: m.isActive,
      updated_at: sql<Date>`now()`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A method of the scope's branch, locked for a change. */
export function lockPaymentMethod(db: Executor, scope: Scope, id: number) {
  return db
    .selectFrom('payment_methods')
    .selectAll()
    .where('id', '=', id)
    .where(scopeCondition(branchScope(scope), { branch: 'branch_id' }))
    .forUpdate()
    .executeTakeFirst();
}

/** Changes a method of the scope's branch; undefined when it is not there or out of scope. */
export function updatePaymentMethod(
  db: Executor,
  scope: Scope,
  id: number,
  patch: { name?: string; kind?: PaymentMethodKind; isActive?: boolean },
) {
  return db
    .updateTable('payment_methods')
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

/**
 * The methods a key's orders may name: those of its branch that apply at every office (no exchange) and those of an
 * exchange in its scope. The partner list shows exactly these, and order creation accepts no other.
 */
function usableBy(scope: Scope) {
  const branchWide = sql<boolean>`(p.exchange_id is null and ${scopeCondition(branchScope(scope), { branch: 'p.branch_id' })})`;
  return sql<boolean>`(${branchWide} or ${scopeCondition(scope, { branch: 'p.branch_id', exchange: 'p.exchange_id' })})`;
}

export function findPaymentMethods(db: Executor, scope: Scope, ids: number[]) {
  return db
    .selectFrom('payment_methods as p')
    .select(['p.id', 'p.branch_id', 'p.exchange_id', 'p.currency_id', 'p.is_active'])
    .where('p.id', 'in', ids)
    .where(usableBy(scope))
    .execute();
}

const usablePage = pageQuery(
  (db, scope: Scope) => db.selectFrom('payment_methods as p').where(usableBy(scope)),
  COLUMNS,
  (qb) => qb.selectAll('p'),
);

export function listUsablePaymentMethods(db: Executor, scope: Scope, params: ListParams) {
  return usablePage(db, scopeValues(scope), params);
}
