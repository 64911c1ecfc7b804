import { sql } from 'kysely';
import type { Scope } from '../../db/scope.js';

/**
 * The ids of a branch's orders lie between its first and last: two lookups in (branch_id, id). With the bound, a
 * walk of the primary key (the planner's choice for the id sort while the branch holds most rows) starts at the
 * branch's orders instead of skipping every other branch's orders before them.
 */
export function branchIdRange(scope: Scope) {
  if (scope.branchId === null) return sql<boolean>`true`;
  return sql<boolean>`o.id between (select min(b.id) from orders b where b.branch_id = ${scope.branchId})
    and (select max(b.id) from orders b where b.branch_id = ${scope.branchId})`;
}
