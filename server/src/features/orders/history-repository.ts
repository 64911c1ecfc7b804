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

/** The history of an order in scope, oldest first. */
export function listHistory(db: Executor, scope: Scope, orderId: number) {
  return inScope(db.selectFrom('order_status_history as h').innerJoin('orders as o', 'o.id', 'h.order_id'), scope, ORDER_SCOPE)
    .select(['h.from_status', 'h.to_status', 'h.actor_type', 'h.api_key_id', 'h.staff_user_id', 'h.comment', 'h.created_at'])
    .where('o.id', '=', orderId)
    .orderBy('h.id')
    .execute();
}
