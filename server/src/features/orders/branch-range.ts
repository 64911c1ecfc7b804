import { sql } from 'kysely';
import type { SortKey } from '../../db/keyset.js';
import type { Scope } from '../../db/scope.js';

/**
 * For a page in id order: the ids of a branch's orders start at its first (ascending) or end at its last
 * (descending), one lookup in (branch_id, id). With the bound, a walk of the primary key (the planner's choice for
 * the id sort while the branch holds most rows) starts at the branch's orders instead of skipping every other
 * branch's orders before them (docs/scaling.md).
 *
 * One side only, and only for the id sort: a bound between two values unknown when the plan is made
 * is given 0.5% of the table, and with both sides on every page the primary key looked cheaper than any ordered
 * index; PostgreSQL then read and sorted the whole branch for a page sorted or filtered on anything else. One
 * side is given a third, which still lets an ordered index win.
 */
export function branchIdBound(scope: Scope, key: SortKey) {
  if (scope.branchId === null || key[0][0] !== 'id') return null;
  return key[0][1] === 'ASC'
    ? sql<boolean>`o.id >= (select min(b.id) from orders b where b.branch_id = ${scope.branchId})`
    : sql<boolean>`o.id <= (select max(b.id) from orders b where b.branch_id = ${scope.branchId})`;
}
