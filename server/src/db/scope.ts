import { sql, type SelectQueryBuilder, type UpdateQueryBuilder } from 'kysely';

/**
 * What a caller may reach: `branchId: null` means every branch (a superadmin); `exchangeIds: null` means every
 * exchange of the reachable branch(es). Principals (auth/principal.ts) carry one.
 */
export interface Scope {
  branchId: number | null;
  exchangeIds: readonly number[] | null;
}

/**
 * The one rule for scope in SQL: rows of the caller's branch (unless it reaches every branch) and, for an
 * exchange-scoped caller, of its exchanges. Applied inside the query so a forgotten check returns nothing.
 */
export function scopeCondition(scope: Scope, columns: { branch: string; exchange?: string }) {
  const parts = [];
  if (scope.branchId !== null) parts.push(sql<boolean>`${sql.ref(columns.branch)} = ${scope.branchId}`);
  if (scope.exchangeIds !== null) {
    if (!columns.exchange) throw new Error('an exchange-scoped caller needs an exchange column');
    parts.push(sql<boolean>`${sql.ref(columns.exchange)} = any(${scope.exchangeIds as number[]}::int[])`);
  }
  return parts.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

// A type literal rather than the Scope interface, so that it is a record of parameters.
export type ScopeValues = { branchId: number | null; exchangeIds: readonly number[] | null };

/**
 * Only the scope's two values, as a memoized query's parameters: a principal carries more fields, and each would
 * become a parameter of its own, and principals of different kinds different query shapes. A query with more
 * parameters than these names them all in one literal (`{ branchId: scope.branchId, exchangeIds:
 * scope.exchangeIds, id }`), not `{ ...scopeValues(scope), id }`: on the request path, V8 promoted objects built
 * by spreading to the old generation, where only a full collection frees them (docs/decisions.md, "No object
 * spread on the request path").
 */
export function scopeValues(scope: Scope): ScopeValues {
  return { branchId: scope.branchId, exchangeIds: scope.exchangeIds };
}

export function inScope<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  scope: Scope,
  columns: { branch: string; exchange?: string },
): SelectQueryBuilder<DB, TB, O> {
  return qb.where(scopeCondition(scope, columns));
}

export function updateInScope<DB, UT extends keyof DB, TB extends keyof DB, O>(
  qb: UpdateQueryBuilder<DB, UT, TB, O>,
  scope: Scope,
  columns: { branch: string; exchange?: string },
): UpdateQueryBuilder<DB, UT, TB, O> {
  return qb.where(scopeCondition(scope, columns));
}
