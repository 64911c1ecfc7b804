import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';
import type { WebhookEvent } from '../../db/schema.js';

export interface OutboxEvent {
  event: WebhookEvent;
  /** Where the resource lives: decides which webhooks' principals can read it. */
  branchId: number;
  exchangeId: number;
  data: Record<string, unknown>;
  /** Extra top-level envelope fields (order.status_changed carries `status`). */
  envelope?: Record<string, unknown>;
  occurredAt?: Date;
}

const ORDER_EVENTS = new Set<WebhookEvent>(['order.created', 'order.status_changed', 'order.cancelled']);

/**
 * The transactional outbox: writes one delivery per subscribed, active webhook whose principal can read the
 * resource when the event happens, inside the caller's transaction, so an event is delivered exactly when its
 * change commits. Offers are readable branch-wide; orders need the exchange in an operator's scope and
 * `orders:read`. Returns the number of deliveries written.
 */
export async function enqueueEvent(tx: Tx, e: OutboxEvent): Promise<number> {
  const body = JSON.stringify({ event: e.event, timestamp: (e.occurredAt ?? new Date()).toISOString(), ...e.envelope, data: e.data });
  const isOrderEvent = ORDER_EVENTS.has(e.event);
  const result = await sql`
    insert into webhook_deliveries (webhook_id, event, body, next_attempt_at)
    select w.id, ${e.event}, ${body}, now()
    from webhooks w
    left join staff_users s on s.id = w.staff_user_id
    where w.is_active
      and ${e.event} = any(w.events)
      and (
        (w.staff_user_id is null and w.branch_id = ${e.branchId})
        or (s.is_active and (
          s.role = 'superadmin'
          or (s.branch_id = ${e.branchId} and (
            s.role = 'admin'
            or not ${isOrderEvent}
            or ('orders:read' = any(s.permissions) and exists (
              select 1 from staff_user_exchanges x where x.staff_user_id = s.id and x.exchange_id = ${e.exchangeId}))
          ))
        ))
      )`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}
