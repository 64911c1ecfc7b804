import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ApiKeyType } from '../../db/schema.js';

/**
 * The keys of a branch: its branch and public keys, and the personal keys of its staff. A superadmin
 * (branchId null) reaches every key.
 */
function keysOfBranch(branchId: number | null) {
  if (branchId === null) return sql<boolean>`true`;
  return sql<boolean>`(k.branch_id = ${branchId} or (k.type = 'personal' and s.branch_id = ${branchId}))`;
}

export interface KeyFilter { type?: ApiKeyType; branchId?: number; isActive?: boolean }

/** Keys in the branch's reach with their owner's email, newest first; never the hash. */
export async function listBranchKeys(db: Executor, branchId: number | null, filter: KeyFilter, page: { skip: number; limit: number }) {
  let base = db.selectFrom('api_keys as k').innerJoin('staff_users as s', 's.id', 'k.staff_user_id').where(keysOfBranch(branchId));
  if (filter.type !== undefined) base = base.where('k.type', '=', filter.type);
  if (filter.branchId !== undefined) base = base.where('k.branch_id', '=', filter.branchId);
  if (filter.isActive !== undefined) base = base.where('k.is_active', '=', filter.isActive);
  const [rows, count] = await Promise.all([
    base.select(['k.id', 'k.name', 'k.type', 'k.key_prefix', 'k.branch_id', 'k.staff_user_id', 'k.is_active', 'k.last_used_at',
      'k.expires_at', 'k.created_at', 'k.updated_at', 's.email as owner_email'])
      .orderBy('k.created_at', 'desc').orderBy('k.id').offset(page.skip).limit(page.limit).execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** Revokes a key in the branch's reach; undefined when there is none (another branch's key is not found). */
export function revokeBranchKey(db: Executor, branchId: number | null, id: string) {
  return db.updateTable('api_keys as k')
    .from('staff_users as s')
    .set({ is_active: false, revoked_at: sql<Date>`coalesce(k.revoked_at, now())`, updated_at: new Date() })
    .whereRef('s.id', '=', 'k.staff_user_id')
    .where('k.id', '=', id)
    .where(keysOfBranch(branchId))
    .returning(['k.id'])
    .executeTakeFirst();
}
