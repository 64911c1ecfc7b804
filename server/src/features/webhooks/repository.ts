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
  id: 'w.id',
  url: 'w.url',
  isActive: 'w.is_active',
  failCount: 'w.fail_count',
  createdAt: 'w.created_at',
  updatedAt: 'w.updated_at',
  branchId: 'w.branch_id',
  staffUserId: 'w.staff_user_id',
};

const webhooksPage = pageQuery(
  (db, v: Visibility) => db.selectFrom('webhooks as w').where(visibleTo(v)),
  WEBHOOK_COLUMNS,
  (qb) => qb.selectAll('w'),
);

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
  return db
    .insertInto('webhooks')
    .values({
      branch_id: w.branchId,
      staff_user_id: w.staffUserId,
      created_by_key_id: w.keyId,
      url: w.url,
      events: w.events,
      secret_key: w.secret,
      updated_at: sql<Date>`now()`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A staff user's webhooks (made with their personal keys) are seen and run by the branch they are in, as their keys
 * are: a moved user's go with them (a superadmin's belong to no branch).
 */
export async function moveOwnerWebhooks(db: Executor, staffUserId: number, branchId: number | null): Promise<string[]> {
  const moved = await db
    .updateTable('webhooks')
    .set({ branch_id: branchId, updated_at: sql<Date>`now()` })
    .where('staff_user_id', '=', staffUserId)
    .returning('id')
    .execute();
  return moved.map((w) => w.id);
}

/** How many webhooks an owner holds: a staff user's (made with personal keys) or a branch's (made with branch keys). */
export async function countWebhooksOfOwner(
  db: Executor,
  owner: { staffUserId: number } | { branchId: number },
): Promise<number> {
  let q = db.selectFrom('webhooks').select(sql<number>`count(*)::int`.as('n'));
  q =
    'staffUserId' in owner
      ? q.where('staff_user_id', '=', owner.staffUserId)
      : q.where('branch_id', '=', owner.branchId).where('staff_user_id', 'is', null);
  return (await q.executeTakeFirstOrThrow()).n;
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
  return db
    .updateTable('webhooks as w')
    .set({ ...change, updated_at: sql<Date>`now()` })
    .where(visibleTo(v))
    .where('w.id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * A new secret; the replaced one keeps signing beside it for `overlapSeconds` (none when 0). A rotation during an
 * overlap drops the older secret: only the one being replaced stays.
 */
export function rotateWebhookSecret(db: Executor, v: Visibility, id: string, secret: string, overlapSeconds: number) {
  const overlap = overlapSeconds > 0;
  return db
    .updateTable('webhooks as w')
    .set({
      secret_key: secret,
      previous_secret_key: overlap ? sql<string>`w.secret_key` : null,
      previous_secret_expires_at: overlap ? sql<Date>`now() + ${overlapSeconds}::int * interval '1 second'` : null,
      updated_at: sql<Date>`now()`,
    })
    .where(visibleTo(v))
    .where('w.id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the webhook; its deliveries and their attempts go with it. */
export async function deleteWebhook(db: Executor, v: Visibility, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('webhooks as w').where(visibleTo(v)).where('w.id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Visible webhooks that are failing or were deactivated: inactive ones first, then by how many attempts failed in a row. */
export function webhooksInTrouble(db: Executor, v: Visibility, limit: number) {
  return db
    .selectFrom('webhooks as w')
    .selectAll('w')
    .where(visibleTo(v))
    .where(sql<boolean>`(not w.is_active or w.fail_count > 0)`)
    .orderBy('w.is_active')
    .orderBy('w.fail_count', 'desc')
    .orderBy('w.id')
    .limit(limit)
    .execute();
}

/** The logins of the staff users owning a page of webhooks (ids from webhooks already read in the caller's view). */
export async function ownerEmails(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('staff_users')
    .select(['id', 'email'])
    .where('id', '=', sql<number>`any(${[...new Set(ids)]}::int[])`)
    .execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}
