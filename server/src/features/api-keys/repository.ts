import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import type { KeyRecord } from '../../auth/key-verifier.js';
import type { ApiKeyType } from '../../db/schema.js';

export interface NewApiKey {
  name: string;
  type: ApiKeyType;
  keyHash: string;
  keyPrefix: string;
  staffUserId: number;
  branchId: number | null;
  expiresAt: Date | null;
  allowedOrigins: string[];
}

export const PUBLIC_COLUMNS = [
  'id',
  'name',
  'type',
  'key_prefix',
  'branch_id',
  'staff_user_id',
  'is_active',
  'last_used_at',
  'expires_at',
  'replaced_by',
  'allowed_origins',
  'created_at',
  'updated_at',
] as const;

export function insertApiKey(db: Executor, key: NewApiKey) {
  return db
    .insertInto('api_keys')
    .values({
      name: key.name,
      type: key.type,
      key_hash: key.keyHash,
      key_prefix: key.keyPrefix,
      staff_user_id: key.staffUserId,
      branch_id: key.branchId,
      expires_at: key.expiresAt,
      allowed_origins: key.allowedOrigins,
      updated_at: sql<Date>`now()`,
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * What a staff user reaches through its own routes (/api-keys): its personal keys. Branch and public keys are
 * their branch's, not their creator's, so there only a superadmin (ownerId null: every key) reaches them, and a
 * superadmin later demoted keeps no hold on the ones it made.
 */
export function ownKeys(ownerId: number | null) {
  if (ownerId === null) return sql<boolean>`true`;
  return sql<boolean>`(k.type = 'personal' and k.staff_user_id = ${ownerId})`;
}

/** The keys a staff user made, newest first: all of a superadmin's, only the personal ones of anyone else. */
export function listApiKeysOfStaff(db: Executor, staffUserId: number, superadmin: boolean) {
  const mine = superadmin ? sql<boolean>`k.staff_user_id = ${staffUserId}` : ownKeys(staffUserId);
  return db
    .selectFrom('api_keys as k')
    .select(PUBLIC_COLUMNS)
    .where(mine)
    .orderBy('k.created_at', 'desc')
    .orderBy('k.id')
    .execute();
}

/** Revokes a key in the caller's reach (ownKeys); undefined when there is none. */
export function revokeApiKey(db: Executor, id: string, ownerId: number | null) {
  return (
    db
      .updateTable('api_keys as k')
      // Revoking again keeps the time of the first revocation.
      .set({ is_active: false, revoked_at: sql<Date>`coalesce(k.revoked_at, now())`, updated_at: sql<Date>`now()` })
      .where('k.id', '=', id)
      .where(ownKeys(ownerId))
      .returning(['k.id'])
      .executeTakeFirst()
  );
}

export type ApiKeyView = Awaited<ReturnType<typeof insertApiKey>>;

/** Sets a public key's allowed origins, if in the caller's reach (ownKeys: a superadmin's only); else undefined. */
export function updateAllowedOrigins(db: Executor, id: string, ownerId: number | null, origins: string[]) {
  return db
    .updateTable('api_keys as k')
    .set({ allowed_origins: origins, updated_at: sql<Date>`now()` })
    .where('k.id', '=', id)
    .where('k.type', '=', 'public')
    .where(ownKeys(ownerId))
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
}

/** A key's type, when the caller may reach it (ownKeys), so that a refusal can say why. */
export function findOwnKeyType(db: Executor, id: string, ownerId: number | null) {
  return db
    .selectFrom('api_keys as k')
    .select(['k.type'])
    .where('k.id', '=', id)
    .where(ownKeys(ownerId))
    .executeTakeFirst();
}

/** Every key, or one staff user's, for the command line; never the hash. */
export function listAllApiKeys(db: Executor, staffUserId?: number) {
  let q = db.selectFrom('api_keys').select(PUBLIC_COLUMNS);
  if (staffUserId !== undefined) q = q.where('staff_user_id', '=', staffUserId);
  return q.orderBy('created_at').orderBy('id').execute();
}

/** Everything needed to authorise a request, in one indexed read (api_keys_key_hash_key). */
export async function findKeyByHash(db: Executor, keyHash: string): Promise<KeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('staff_users as s', 's.id', 'k.staff_user_id')
    .select([
      'k.id',
      'k.type',
      'k.branch_id',
      'k.is_active',
      'k.expires_at',
      'k.staff_user_id',
      'k.allowed_origins',
      's.is_active as staff_active',
      's.role',
      's.branch_id as staff_branch_id',
      's.permissions',
      sql<number[]>`array(select e.exchange_id from staff_user_exchanges e where e.staff_user_id = s.id order by 1)`.as(
        'exchange_ids',
      ),
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
    allowedOrigins: row.allowed_origins,
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

/**
 * The keys of a branch: its branch and public keys, and the personal keys of its staff. A superadmin
 * (branchId null) reaches every key.
 */
export function keysOfBranch(branchId: number | null) {
  if (branchId === null) return sql<boolean>`true`;
  return sql<boolean>`(k.branch_id = ${branchId} or (k.type = 'personal' and s.branch_id = ${branchId}))`;
}

export interface KeyFilter {
  type?: ApiKeyType;
  branchId?: number;
  isActive?: boolean;
}

const KEY_COLUMNS: Record<string, string> = {
  id: 'k.id',
  createdAt: 'k.created_at',
  type: 'k.type',
  branchId: 'k.branch_id',
  isActive: 'k.is_active',
};

const keysPage = pageQuery(
  (db, scope: { branchId: number | null }) =>
    db
      .selectFrom('api_keys as k')
      .innerJoin('staff_users as s', 's.id', 'k.staff_user_id')
      .where(keysOfBranch(scope.branchId)),
  KEY_COLUMNS,
  (qb) =>
    qb.select([
      'k.id',
      'k.name',
      'k.type',
      'k.key_prefix',
      'k.branch_id',
      'k.staff_user_id',
      'k.is_active',
      'k.last_used_at',
      'k.expires_at',
      'k.replaced_by',
      'k.allowed_origins',
      'k.created_at',
      'k.updated_at',
      's.email as owner_email',
    ]),
);

/** Keys in the branch's reach with their owner's email, newest first; never the hash. */
export function listBranchKeys(db: Executor, branchId: number | null, params: ListParams) {
  return keysPage(db, { branchId }, params);
}

/** Revokes a key in the branch's reach; undefined when there is none (another branch's key is not found). */
export function revokeBranchKey(db: Executor, branchId: number | null, id: string) {
  return db
    .updateTable('api_keys as k')
    .from('staff_users as s')
    .set({ is_active: false, revoked_at: sql<Date>`coalesce(k.revoked_at, now())`, updated_at: sql<Date>`now()` })
    .whereRef('s.id', '=', 'k.staff_user_id')
    .where('k.id', '=', id)
    .where(keysOfBranch(branchId))
    .returning(['k.id'])
    .executeTakeFirst();
}

/** The branch a key belongs to: its own, or for a personal key its owner's (null: a superadmin's). */
export async function keyBranch(db: Executor, id: string): Promise<number | null> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('staff_users as s', 's.id', 'k.staff_user_id')
    .select(sql<number | null>`coalesce(k.branch_id, s.branch_id)`.as('branch_id'))
    .where('k.id', '=', id)
    .executeTakeFirst();
  return row?.branch_id ?? null;
}

// The api_keys queries of a key roll and of the per-user key limit.

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
  return db
    .selectFrom('api_keys as k')
    .innerJoin('staff_users as s', 's.id', 'k.staff_user_id')
    .select([
      'k.id',
      'k.name',
      'k.type',
      'k.branch_id',
      'k.staff_user_id',
      'k.is_active',
      'k.expires_at',
      'k.replaced_by',
    ])
    .where(reachOf(reach))
    .where('k.id', '=', id)
    .forUpdate('k')
    .executeTakeFirst();
}

export function markRolled(db: Executor, id: string, replacedBy: string, expiresAt: Date) {
  return db
    .updateTable('api_keys')
    .set({ replaced_by: replacedBy, expires_at: expiresAt, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Personal keys that still work and were not rolled: what the per-user limit counts. */
export async function countActivePersonalKeys(db: Executor, staffUserId: number): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('staff_user_id', '=', staffUserId)
    .where('type', '=', 'personal')
    .where('is_active', '=', true)
    .where('replaced_by', 'is', null)
    .where(sql<boolean>`(expires_at is null or expires_at > now())`)
    .executeTakeFirstOrThrow();
  return row.n;
}
