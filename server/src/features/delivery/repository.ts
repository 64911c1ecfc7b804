import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type Condition, type ListParams } from '../../db/list.js';

export const DELIVERY_COLUMNS: Record<string, string> = {
  id: 'd.id', status: 'd.status', event: 'd.event', attempts: 'd.attempts', createdAt: 'd.created_at', updatedAt: 'd.updated_at',
};

const deliveryColumns = ['d.id', 'd.event', 'd.status', 'd.attempts', 'd.last_response_status', 'd.last_error',
  'd.next_attempt_at', 'd.delivered_at', 'd.created_at', 'd.updated_at'] as const;
/** The order or offer the event is about (`data.id` of the body as sent), so a log's rows can be told apart. */
const subjectId = sql<number | null>`substring(d.body::jsonb #>> '{data,id}' from '^[0-9]{1,9}$')::int`.as('subject_id');

/**
 * The log's exact count unfiltered or filtered on status and event, from the counters migration 016's triggers keep
 * per (webhook, status, event); a window's from the days
 * inside it and the rows of its edge days.
 */
const COUNTED: Record<string, string> = { status: 'status', event: 'event' };
function exactTotal(p: { webhookId: string }, conditions: readonly Condition[]) {
  if (!conditions.every((c) => c.op === 'eq' && Object.hasOwn(COUNTED, c.field))) return null;
  const parts = [sql<boolean>`webhook_id = ${p.webhookId}`, ...conditions.map((c) => sql<boolean>`${sql.ref(COUNTED[c.field]!)} = ${c.value}`)];
  return sql<number>`(select coalesce(sum(n), 0)::int from webhook_delivery_counts where ${sql.join(parts, sql` and `)})`;
}

// The webhook's visibility to the caller is checked by the registry before its log is read.
const deliveriesPage = pageQuery((db, p: { webhookId: string }) => db.selectFrom('webhook_deliveries as d').where('d.webhook_id', '=', p.webhookId),
  DELIVERY_COLUMNS, (qb) => qb.select(deliveryColumns).select(subjectId), {
    planEachTime: true,
    exactTotal,
    dayCounts: (p) => ({ table: 'webhook_delivery_days', where: sql<boolean>`webhook_id = ${p.webhookId}` }),
  });

export function listDeliveries(db: Executor, webhookId: string, params: ListParams) {
  return deliveriesPage(db, { webhookId }, params);
}

export function findDelivery(db: Executor, webhookId: string, deliveryId: string) {
  return db.selectFrom('webhook_deliveries as d').select(deliveryColumns).select(subjectId).select('d.body')
    .where('d.webhook_id', '=', webhookId).where('d.id', '=', deliveryId).executeTakeFirst();
}

export function listAttempts(db: Executor, deliveryId: string) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
}

/**
 * Makes a delivery due now, whatever its status, for one more attempt (and the remaining retries, if any).
 * An attempt already in flight is left alone. Only while its webhook is active.
 */
export function requeueDelivery(db: Executor, webhookId: string, deliveryId: string) {
  return db.updateTable('webhook_deliveries as d')
    .from('webhooks as w')
    .set({ status: 'pending', next_attempt_at: sql`now()`, updated_at: sql`now()`, delivered_at: null })
    .whereRef('w.id', '=', 'd.webhook_id')
    .where('w.is_active', '=', true)
    .where('d.webhook_id', '=', webhookId).where('d.id', '=', deliveryId)
    .where('d.lease_expires_at', 'is', null)
    .returning(deliveryColumns).returning(subjectId)
    .executeTakeFirst();
}
