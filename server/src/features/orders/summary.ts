import { sql } from 'kysely';
import type { Scope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import type { OrderStatus } from '../../db/schema.js';
import { inScope } from '../../db/scope.js';
import { ORDER_STATUSES } from './transitions.js';

const SCOPE_COLUMNS = { branch: 'o.branch_id', exchange: 'o.cashbox_id' };
const OPEN: readonly OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'];

/** How many orders in scope were created since `since`, by their status now (every status present, 0 when none). */
export async function countByStatusSince(db: Executor, scope: Scope, since: Date): Promise<Record<OrderStatus, number>> {
  const rows = await inScope(db.selectFrom('orders as o'), scope, SCOPE_COLUMNS)
    .select(['o.status', sql<number>`count(*)::int`.as('n')])
    .where('o.created_at', '>=', since)
    .groupBy('o.status')
    .execute();
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

/** Open orders in scope that have gone longest without a change: the ones a counter should look at first. */
export function waitingLongest(db: Executor, scope: Scope, limit: number) {
  return inScope(db.selectFrom('orders as o'), scope, SCOPE_COLUMNS)
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .select(['o.id', 'o.hashed_id', 'o.status', 'o.cashbox_id', 'o.client_amount', 'o.exchange_amount', 'o.created_at', 'o.updated_at',
      'c1.code as c1_code', 'c2.code as c2_code'])
    .where('o.status', 'in', [...OPEN])
    .orderBy('o.updated_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
}
