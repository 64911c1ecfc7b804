import { sql } from 'kysely';
import type { Permission } from '../../db/schema.js';
import type { Executor } from '../../db/database.js';
import { scopeCondition, type Scope } from '../../db/scope.js';
import type { Cursor } from './cursor.js';

export interface EventRow { tx: string; seq: string; body: string }

/**
 * The events after `after` that `reader` may see, oldest first: offer events of its branch, order events of
 * its exchanges when it may read orders (the rule the outbox applies to a webhook's principal).
 *
 * The feed is ordered by the writing transaction's id, then the sequence, and stops before the oldest
 * transaction still running: a sequence number is drawn at insert but seen at commit, so ordering by it alone
 * would let a reader move past an event committed late, and never see it. Every transaction that can still
 * commit has an id at least the snapshot's xmin, so nothing can appear before the cursor once it has moved.
 */
export async function eventsAfter(db: Executor, reader: Scope & { permissions: ReadonlySet<Permission> }, after: Cursor, limit: number): Promise<EventRow[]> {
  const branch = scopeCondition({ branchId: reader.branchId, exchangeIds: null }, { branch: 'e.branch_id' });
  const orders = reader.permissions.has('orders:read') ? scopeCondition(reader, { branch: 'e.branch_id', exchange: 'e.exchange_id' }) : sql<boolean>`false`;
  const { rows } = await sql<EventRow>`
    select e.tx_id::text as tx, e.seq::text as seq, e.body
    from events e
    where ${branch}
      and (not e.is_order_event or ${orders})
      and (e.tx_id, e.seq) > (${after.tx}::xid8, ${after.seq}::bigint)
      and e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
    order by e.tx_id, e.seq
    limit ${limit}`.execute(db);
  return rows;
}
