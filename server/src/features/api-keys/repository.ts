import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ApiKeyType } from '../../db/schema.js';

export interface NewApiKey {
  name: string;
  type: ApiKeyType;
  keyHash: string;
  keyPrefix: string;
  staffUserId: number;
  branchId: number | null;
  expiresAt: Date | null;
}

const PUBLIC_COLUMNS = ['id', 'name', 'type', 'key_prefix', 'branch_id', 'staff_user_id', 'is_active', 'last_used_at', 'expires_at', 'created_at', 'updated_at'] as const;

export function insertApiKey(db: Executor, key: NewApiKey) {
  return db.insertInto('api_keys')
    .values({
      name: key.name, type: key.type, key_hash: key.keyHash, key_prefix: key.keyPrefix,
      staff_user_id: key.staffUserId, branch_id: key.branchId, expires_at: key.expiresAt, updated_at: new Date(),
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function listApiKeysOfStaff(db: Executor, staffUserId: number) {
  return db.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('staff_user_id', '=', staffUserId).orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Revokes a key; `ownerId` limits it to the owner's keys (null: any key, for a superadmin). */
export function revokeApiKey(db: Executor, id: string, ownerId: number | null) {
  let q = db.updateTable('api_keys')
    // Revoking again keeps the time of the first revocation.
    .set({ is_active: false, revoked_at: sql<Date>`coalesce(revoked_at, now())`, updated_at: new Date() })
    .where('id', '=', id);
  if (ownerId !== null) q = q.where('staff_user_id', '=', ownerId);
  return q.returning(['id']).executeTakeFirst();
}

export type ApiKeyView = Awaited<ReturnType<typeof insertApiKey>>;

/** Every key, or one staff user's, for the command line; never the hash. */
export function listAllApiKeys(db: Executor, staffUserId?: number) {
  let q = db.selectFrom('api_keys').select(PUBLIC_COLUMNS);
  if (staffUserId !== undefined) q = q.where('staff_user_id', '=', staffUserId);
  return q.orderBy('created_at').orderBy('id').execute();
}
