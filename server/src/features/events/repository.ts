import { sql } from 'kysely';
import type { Permission } from '../../db/schema.js';
import type { Executor } from '../../db/database.js';
import { scopeCondition, type Scope } from '../../db/scope.js';
import type { Cursor } from './cursor.js';

export interface EventRow {
  tx: string;
  seq: string;
  body: string;
}

/**
 * The events after `after` that `reader` may see, oldest first: offer events of its branch, order events of
 * its exchanges when it may read orders (the rule the outbox applies to a webhook's principal).
 *
 * The feed is ordered by the writing transaction's id, then the sequence, and stops before the oldest
 * transaction still running that may be this database's (runningBarrier): a sequence number is drawn at insert but seen at
 * commit, so ordering by it alone would let a reader move past an event committed late, and never see it. A
 * transaction that can still commit has an id at least the barrier, so nothing can appear before the cursor
 * once it has moved.
 */
export async function eventsAfter(
  db: Executor,
  reader: Scope & { permissions: ReadonlySet<Permission> },
  after: Cursor,
  limit: number,
): Promise<EventRow[]> {
  const barrier = await runningBarrier(db);
  const branch = scopeCondition({ branchId: reader.branchId, exchangeIds: null }, { branch: 'e.branch_id' });
  const orders = reader.permissions.has('orders:read')
    ? scopeCondition(reader, { branch: 'e.branch_id', exchange: 'e.exchange_id' })
    : sql<boolean>`false`;
  const { rows } = await sql<EventRow>`
    select e.tx_id::text as tx, e.seq::text as seq, e.body
    from events e
    where ${branch}
      and (not e.is_order_event or ${orders})
      and (e.tx_id, e.seq) > (${after.tx}::xid8, ${after.seq}::bigint)
      and e.tx_id < ${barrier}::xid8
    order by e.tx_id, e.seq
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * The id of the oldest transaction still running that may be this database's, or the next id to be assigned
 * when none is. Read in a statement of its own, before the events are read (each statement takes a new
 * snapshot): any transaction not running now has either committed, and the next statement sees it, or gets a
 * later id. The running transactions are the snapshot's (its xip list), which is exact. pg_stat_activity only
 * removes those it shows to belong to another database, so that a long transaction elsewhere in the cluster does
 * not hold the feed back; it may not show a transaction yet, and reading this database's from it alone let a
 * reader move past events written under load. Its ids are 32 bits: they are compared with the low 32 bits.
 */
async function runningBarrier(db: Executor): Promise<string> {
  const { rows } = await sql<{ barrier: string }>`
    with s as (select pg_current_snapshot() as snap),
    elsewhere as (select a.backend_xid::text::numeric as x from pg_stat_activity a where a.datname is distinct from current_database() and a.backend_xid is not null),
    running as (select x::text::numeric as x from s, pg_snapshot_xip(s.snap) as x)
    select coalesce(
      (select min(r.x) from running r where mod(r.x, 4294967296) not in (select x from elsewhere)),
      (select pg_snapshot_xmax(s.snap)::text::numeric from s))::text as barrier`.execute(db);
  return rows[0]!.barrier;
}
