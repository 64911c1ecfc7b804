import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import type { OrderStatus } from '../../db/schema.js';
import { inScope, type Scope } from '../../db/scope.js';

// The status history of orders: one row per move, written with the move (or with the order, for its first), and
// read in the order's scope.
const ORDER_SCOPE = { branch: 'o.branch_id', exchange: 'o.cashbox_id' };

export type HistoryActor = { type: 'api_key'; apiKeyId: string; staffUserId: number | null } | { type: 'staff'; staffUserId: number };

export interface HistoryRow {
  orderId: number;
  from: OrderStatus | null;
  to: OrderStatus;
  actor: HistoryActor;
  comment?: string | null;
}

export async function insertHistory(tx: Tx, h: HistoryRow): Promise<void> {
  await tx.insertInto('order_status_history').values(historyValues(h)).execute();
}

export function historyValues(h: HistoryRow) {
  return {
    order_id: h.orderId,
    from_status: h.from,
    to_status: h.to,
    actor_type: h.actor.type,
    api_key_id: h.actor.type === 'api_key' ? h.actor.apiKeyId : null,
    staff_user_id: h.actor.staffUserId,
    comment: h.comment ?? null,
  };
}

/** The history of an order in scope, oldest first, with the login of the staff user behind each move. */
export function listHistory(db: Executor, scope: Scope, orderId: number) {
  return inScope(db.selectFrom('order_status_history as h').innerJoin('orders as o', 'o.id', 'h.order_id'), scope, ORDER_SCOPE)
    // The staff user's login names them in the console; a deleted or never-existing one leaves it null.
    .leftJoin('staff_users as s', 's.id', 'h.staff_user_id')
    .select(['h.from_status', 'h.to_status', 'h.actor_type', 'h.api_key_id', 'h.staff_user_id', 's.email as staff_email', 'h.comment', 'h.created_at'])
    .where('o.id', '=', orderId)
    .orderBy('h.id')
    .execute();
}

export interface ChangeRow {
  id: number;
  orderId: number;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  branchId: number;
  exchangeId: number;
  at: Date;
}

/** The newest history id: a feed of changes starts after it. */
export async function lastChangeId(db: Executor): Promise<number> {
  const row = await db.selectFrom('order_status_history').select(sql<string | number | null>`max(id)`.as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Every order change (a new order or a move) after `afterId` but those already `seen`, oldest first, with where
 * its order lives. Each change writes a history row, and reading them by primary key is an index range scan
 * however large the tables grow. Unscoped: the order feed applies each listener's scope (order-feed/visibility.ts).
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
