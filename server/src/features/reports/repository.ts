import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import { scopeCondition, type Scope } from '../../db/scope.js';
import type { Piece } from './periods.js';
import type { GroupBy } from './schemas.js';

/** An order settles now: its figures join the buckets of this moment (the time its SUCCESS history row shows). */
export async function addSettled(tx: Tx, orderId: number, moverStaffId: number | null): Promise<void> {
  await sql`select turnover_add(1, array[${orderId}::int], array[now()], array[${moverStaffId}::int])`.execute(tx);
}

/** An order leaves SUCCESS: its figures leave the buckets its last settling put them in. */
export async function removeSettled(tx: Tx, orderId: number): Promise<void> {
  await sql`
    select turnover_add(-1, array[h.order_id], array[h.created_at], array[case when h.actor_type = 'staff' then h.staff_user_id end])
    from (
      select order_id, created_at, actor_type, staff_user_id from order_status_history
      where order_id = ${orderId}::int and to_status = 'SUCCESS' order by id desc limit 1
    ) h`.execute(tx);
}

export interface TurnoverRecord {
  label: string;
  exchange_id: number | null;
  staff_id: number | null;
  staff_email: string | null;
  currency_id: number;
  ticker: string;
  received: string;
  paid_out: string;
  income: string;
  orders: number;
}

const NONE = { exchange: 'null::int as exchange_id', staff: 'null::int as staff_id, null::text as staff_email' };

const KEYS: Record<GroupBy, { select: string; group: string; order: string }> = {
  day: { select: `p.label, ${NONE.exchange}, ${NONE.staff}`, group: 'p.label, ', order: 'p.label, ' },
  exchange: { select: `'' as label, t.exchange_id, ${NONE.staff}`, group: 't.exchange_id, ', order: 't.exchange_id, ' },
  currency: { select: `'' as label, ${NONE.exchange}, ${NONE.staff}`, group: '', order: '' },
  staff: {
    select: `'' as label, ${NONE.exchange}, t.staff_id, su.email as staff_email`,
    group: 't.staff_id, su.email, ',
    order: 't.staff_id, ',
  },
};

/**
 * The sums of the buckets of `pieces`, grouped: one index probe per piece (branch, span, bucket), whatever the number
 * of orders behind each bucket. Rows whose orders all left SUCCESS again are left out.
 */
export async function sumBuckets(
  db: Executor,
  scope: Scope,
  pieces: readonly Piece[],
  groupBy: GroupBy,
  exchangeId: number | undefined,
): Promise<TurnoverRecord[]> {
  const k = KEYS[groupBy];
  const { rows } = await sql<TurnoverRecord>`
    select ${sql.raw(k.select)}, t.currency_id, c.code as ticker,
      sum(t.received)::text as received, sum(t.paid_out)::text as paid_out, sum(t.income)::text as income,
      sum(t.orders)::int as orders
    from unnest(${pieces.map((p) => p.label)}::text[], ${pieces.map((p) => p.span)}::smallint[],
      ${pieces.map((p) => p.bucket.toISOString())}::timestamptz[]) as p(label, span, bucket)
    join turnover t on t.span = p.span and t.bucket = p.bucket
    join currencies c on c.id = t.currency_id
    left join staff_users su on su.id = t.staff_id
    where ${scopeCondition(scope, { branch: 't.branch_id', exchange: 't.exchange_id' })}
      and (${exchangeId ?? null}::int is null or t.exchange_id = ${exchangeId ?? null}::int)
    group by ${sql.raw(k.group)}t.currency_id, c.code
    having sum(t.orders) <> 0
    order by ${sql.raw(k.order)}t.currency_id`.execute(db);
  return rows;
}
