import { sql } from 'kysely';
import { dayOf, type Condition } from '../../db/list.js';
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
 *
 * A window of createdAt in id order starts instead at the window: its days' smallest id (ascending, from a lower
 * bound of the window) or largest (descending, from an upper one), kept per branch and day by migration 016's
 * triggers. Without it the walk read every order before the window (ids follow time) and the window's index read
 * the whole window to sort it: 0.01 of the small branch's rate for the last week of a million orders.
 */
export function branchIdBound(scope: Scope, key: SortKey, conditions: readonly Condition[] = []) {
  if (scope.branchId === null || key[0][0] !== 'id') return null;
  const ascending = key[0][1] === 'ASC';
  const window = conditions.filter((c) => c.field === 'createdAt' && c.op !== 'eq');
  const from = window.filter((c) => c.op === 'gte' || c.op === 'gt');
  const to = window.filter((c) => c.op === 'lte' || c.op === 'lt');
  if (ascending ? from.length > 0 : to.length > 0) {
    const days = [
      sql<boolean>`d.branch_id = ${scope.branchId}`,
      ...from.map((c) => sql<boolean>`d.day >= ${dayOf(c.value)}`),
      ...to.map((c) => sql<boolean>`d.day <= ${dayOf(c.value)}`),
    ];
    return ascending
      ? sql<boolean>`o.id >= (select min(d.min_id) from order_days d where ${sql.join(days, sql` and `)})`
      : sql<boolean>`o.id <= (select max(d.max_id) from order_days d where ${sql.join(days, sql` and `)})`;
  }
  return ascending
    ? sql<boolean>`o.id >= (select min(b.id) from orders b where b.branch_id = ${scope.branchId})`
    : sql<boolean>`o.id <= (select max(b.id) from orders b where b.branch_id = ${scope.branchId})`;
}
