import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { keysOfBranch, ownKeys, PUBLIC_COLUMNS } from './repository.js';

// The api_keys queries of a key roll and of the per-user key limit, beside the table's other queries in repository.ts.

/**
 * Whose keys a write reaches: a staff user's own personal keys (`ownerId`, see ownKeys) or a branch's
 * (`branchId`, see keysOfBranch); null for either reaches every key.
 */
export type KeyReach = { ownerId: number | null } | { branchId: number | null };

function reachOf(reach: KeyReach) {
  return 'branchId' in reach ? keysOfBranch(reach.branchId) : ownKeys(reach.ownerId);
}

/** The key to roll, locked until the roll commits so that two rolls of one key cannot both succeed. */
export function findKeyForRoll(db: Executor, reach: KeyReach, id: string) {
  return db.selectFrom('api_keys as k').innerJoin('staff_users as s', 's.id', 'k.staff_user_id')
    .select(['k.id', 'k.name', 'k.type', 'k.branch_id', 'k.staff_user_id', 'k.is_active', 'k.expires_at', 'k.replaced_by'])
    .where(reachOf(reach)).where('k.id', '=', id)
    .forUpdate('k')
    .executeTakeFirst();
}

export function markRolled(db: Executor, id: string, replacedBy: string, expiresAt: Date) {
  return db.updateTable('api_keys').set({ replaced_by: replacedBy, expires_at: expiresAt, updated_at: sql<Date>`now()` })
    .where('id', '=', id).returning(PUBLIC_COLUMNS).executeTakeFirstOrThrow();
}

/** Personal keys that still work and were not rolled: what the per-user limit counts. */
export async function countActivePersonalKeys(db: Executor, staffUserId: number): Promise<number> {
  const row = await db.selectFrom('api_keys').select(sql<number>`count(*)::int`.as('n'))
    .where('staff_user_id', '=', staffUserId).where('type', '=', 'personal').where('is_active', '=', true).where('replaced_by', 'is', null)
    .where(sql<boolean>`(expires_at is null or expires_at > now())`)
    .executeTakeFirstOrThrow();
  return row.n;
}
