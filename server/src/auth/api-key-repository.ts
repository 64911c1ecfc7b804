import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { ApiKeyType, Permission, StaffRole } from '../db/schema.js';

export interface KeyRecord {
  id: string;
  type: ApiKeyType;
  branchId: number | null;
  isActive: boolean;
  expiresAt: Date | null;
  staffUserId: number;
  staffActive: boolean;
  staffRole: StaffRole;
  staffBranchId: number | null;
  staffPermissions: Permission[];
  staffExchangeIds: number[];
}

/** Everything needed to authorise a request, in one indexed read (api_keys_key_hash_key). */
export async function findKeyByHash(db: Executor, keyHash: string): Promise<KeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('staff_users as s', 's.id', 'k.staff_user_id')
    .select([
      'k.id', 'k.type', 'k.branch_id', 'k.is_active', 'k.expires_at', 'k.staff_user_id',
      's.is_active as staff_active', 's.role', 's.branch_id as staff_branch_id', 's.permissions',
      sql<number[]>`array(select e.exchange_id from staff_user_exchanges e where e.staff_user_id = s.id order by 1)`.as('exchange_ids'),
    ])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    type: row.type,
    branchId: row.branch_id,
    isActive: row.is_active,
    expiresAt: row.expires_at,
    staffUserId: row.staff_user_id,
    staffActive: row.staff_active,
    staffRole: row.role,
    staffBranchId: row.staff_branch_id,
    staffPermissions: row.permissions,
    staffExchangeIds: row.exchange_ids,
  };
}

/** Writes a batch of last-use times in one statement; never moves a time backwards. */
export async function recordLastUsed(db: Executor, uses: ReadonlyMap<string, Date>): Promise<void> {
  if (uses.size === 0) return;
  const ids = [...uses.keys()];
  const times = ids.map((id) => uses.get(id)!.toISOString());
  await sql`
    update api_keys set last_used_at = u.used_at
    from (select unnest(${ids}::uuid[]) as id, unnest(${times}::timestamptz[]) as used_at) u
    where api_keys.id = u.id and (api_keys.last_used_at is null or api_keys.last_used_at < u.used_at)`.execute(db);
}
