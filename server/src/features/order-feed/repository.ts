import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { OrderStatus } from '../../db/schema.js';

export interface ChangeRow {
  id: number;
  orderId: number;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  branchId: number;
  exchangeId: number;
  at: Date;
}

/** The newest history id: a new feed starts after it (it reports changes, not the past). */
export async function lastChangeId(db: Executor): Promise<number> {
  const row = await db.selectFrom('order_status_history').select(sql<string | number | null>`max(id)`.as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Every order change (a new order or a move) after `afterId` but those already `seen`, oldest first: each
 * writes a history row, and reading those by their primary key is an index range scan however large the
 * tables grow.
 */
export async function changesAfter(db: Executor, afterId: number, seen: readonly number[], limit: number): Promise<ChangeRow[]> {
  const rows = await db.selectFrom('order_status_history as h')
    .innerJoin('orders as o', 'o.id', 'h.order_id')
    .select(['h.id', 'h.order_id', 'h.from_status', 'h.to_status', 'h.created_at', 'o.branch_id', 'o.cashbox_id'])
    .where('h.id', '>', String(afterId))
    .where(sql<boolean>`not (h.id = any(${seen.map(String)}::bigint[]))`)
    .orderBy('h.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id), orderId: r.order_id, fromStatus: r.from_status, toStatus: r.to_status,
    branchId: r.branch_id, exchangeId: r.cashbox_id, at: r.created_at,
  }));
}
