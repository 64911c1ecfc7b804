import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { WebhookEvent } from '../../db/schema.js';
import { pageQuery, type ListParams } from '../../db/list.js';

/** Whose webhooks a caller reaches: a personal key its user's, a branch key or an admin its branch's, a superadmin all. */
export type Visibility = { staffUserId: number } | { branchId: number } | { all: true };

/** The scope condition every query of this file carries, so a forgotten check finds nothing. */
function visibleTo(v: Visibility): Expression<SqlBool> {
  if ('staffUserId' in v) return sql<SqlBool>`w.staff_user_id = ${v.staffUserId}`;
  if ('branchId' in v) return sql<SqlBool>`w.branch_id = ${v.branchId}`;
  return sql<SqlBool>`true`;
}

export const WEBHOOK_COLUMNS: Record<string, string> = {
  id: 'w.id', url: 'w.url', isActive: 'w.is_active', failCount: 'w.fail_count', createdAt: 'w.created_at', updatedAt: 'w.updated_at',
  branchId: 'w.branch_id', staffUserId: 'w.staff_user_id',
};

const webhooksPage = pageQuery((db, v: Visibility) => db.selectFrom('webhooks as w').where(visibleTo(v)), WEBHOOK_COLUMNS, (qb) => qb.selectAll('w'));

export function listWebhooks(db: Executor, v: Visibility, params: ListParams) {
  return webhooksPage(db, v, params);
}

export function findWebhook(db: Executor, v: Visibility, id: string) {
  return db.selectFrom('webhooks as w').selectAll('w').where(visibleTo(v)).where('w.id', '=', id).executeTakeFirst();
}

export interface NewWebhook {
  branchId: number | null;
  staffUserId: number | null;
  keyId: string | null;
  url: string;
  events: WebhookEvent[];
  secret: string;
}

export function insertWebhook(db: Executor, w: NewWebhook) {
  return db.insertInto('webhooks').values({
    branch_id: w.branchId, staff_user_id: w.staffUserId, created_by_key_id: w.keyId,
    url: w.url, events: w.events, secret_key: w.secret, updated_at: new Date(),
  }).returningAll().executeTakeFirstOrThrow();
}

export interface WebhookChange {
  url?: string;
  events?: WebhookEvent[];
  secret_key?: string;
  is_active?: boolean;
  fail_count?: number;
  deactivated_at?: Date | null;
}

export function updateWebhook(db: Executor, v: Visibility, id: string, change: WebhookChange) {
  return db.updateTable('webhooks as w').set({ ...change, updated_at: sql`now()` })
    .where(visibleTo(v)).where('w.id', '=', id).returningAll().executeTakeFirst();
}

/** Deletes the webhook; its pending deliveries are marked abandoned first (and then go with it). */
export async function deleteWebhook(db: Executor, v: Visibility, id: string): Promise<{ deleted: boolean; abandoned: number }> {
  const abandoned = await sql`
    update webhook_deliveries d set status = 'abandoned', lease_expires_at = null, leased_by = null, updated_at = now()
    from webhooks w
    where w.id = d.webhook_id and w.id = ${id} and d.status = 'pending' and ${visibleTo(v)}`.execute(db);
  const deleted = await db.deleteFrom('webhooks as w').where(visibleTo(v)).where('w.id', '=', id).executeTakeFirst();
  return { deleted: Number(deleted.numDeletedRows) > 0, abandoned: Number(abandoned.numAffectedRows ?? 0) };
}

export const DELIVERY_COLUMNS: Record<string, string> = {
  id: 'd.id', status: 'd.status', event: 'd.event', attempts: 'd.attempts', createdAt: 'd.created_at', updatedAt: 'd.updated_at',
};

const deliveryColumns = ['d.id', 'd.event', 'd.status', 'd.attempts', 'd.last_response_status', 'd.last_error',
  'd.next_attempt_at', 'd.delivered_at', 'd.created_at', 'd.updated_at'] as const;

function deliveriesOf(db: Executor, v: Visibility, webhookId: string) {
  return db.selectFrom('webhook_deliveries as d').innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .where(visibleTo(v)).where('d.webhook_id', '=', webhookId);
}

const deliveriesPage = pageQuery((db, p: Visibility & { webhookId: string }) => deliveriesOf(db, p, p.webhookId), DELIVERY_COLUMNS, (qb) => qb.select(deliveryColumns));

export function listDeliveries(db: Executor, v: Visibility, webhookId: string, params: ListParams) {
  return deliveriesPage(db, { ...v, webhookId }, params);
}

export async function findDelivery(db: Executor, v: Visibility, webhookId: string, deliveryId: string) {
  const delivery = await deliveriesOf(db, v, webhookId).select(deliveryColumns).select('d.body').where('d.id', '=', deliveryId).executeTakeFirst();
  if (!delivery) return undefined;
  const attempts = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
  return { delivery, attempts };
}

/**
 * Makes a delivery due now, whatever its status, for one more attempt (and the remaining retries, if any).
 * An attempt already in flight is left alone. Only for an active webhook.
 */
export async function requeueDelivery(db: Executor, v: Visibility, webhookId: string, deliveryId: string) {
  return db.updateTable('webhook_deliveries as d')
    .from('webhooks as w')
    .set({ status: 'pending', next_attempt_at: sql`now()`, updated_at: sql`now()`, delivered_at: null })
    .whereRef('w.id', '=', 'd.webhook_id')
    .where(visibleTo(v)).where('w.is_active', '=', true)
    .where('d.webhook_id', '=', webhookId).where('d.id', '=', deliveryId)
    .where('d.lease_expires_at', 'is', null)
    .returning(deliveryColumns)
    .executeTakeFirst();
}
