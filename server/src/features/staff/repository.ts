import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { inScope, scopeValues, type Scope } from '../../db/scope.js';
import type { Permission, StaffRole } from '../../db/schema.js';

export const STAFF_COLUMNS: Record<string, string> = {
  id: 's.id',
  email: 's.email',
  role: 's.role',
  branchId: 's.branch_id',
  isActive: 's.is_active',
  createdAt: 's.created_at',
  updatedAt: 's.updated_at',
};

const exchangeIds = sql<
  number[]
>`array(select x.exchange_id from staff_user_exchanges x where x.staff_user_id = s.id order by 1)`;

function staffInScope(db: Executor, scope: Scope) {
  // Superadmins have no branch, so an admin's scope never reaches them.
  return inScope(
    db.selectFrom('staff_users as s'),
    { branchId: scope.branchId, exchangeIds: null },
    { branch: 's.branch_id' },
  );
}

function selectStaffColumns(q: ReturnType<typeof staffInScope>) {
  return q
    .select([
      's.id',
      's.email',
      's.role',
      's.branch_id',
      's.permissions',
      's.is_active',
      's.created_at',
      's.updated_at',
    ])
    .select(exchangeIds.as('exchange_ids'));
}

export type StaffRow = NonNullable<Awaited<ReturnType<typeof findStaff>>>;

export function findStaff(db: Executor, scope: Scope, id: number) {
  return selectStaffColumns(staffInScope(db, scope)).where('s.id', '=', id).executeTakeFirst();
}

/** Locks the row so that two concurrent changes of one user apply one after the other. */
export function lockStaff(db: Executor, scope: Scope, id: number) {
  return selectStaffColumns(staffInScope(db, scope)).where('s.id', '=', id).forUpdate().executeTakeFirst();
}

const staffPage = pageQuery((db, scope: Scope) => staffInScope(db, scope), STAFF_COLUMNS, selectStaffColumns);

export function listStaff(db: Executor, scope: Scope, params: ListParams) {
  return staffPage(db, scopeValues(scope), params);
}

export interface StaffValues {
  email: string;
  passwordHash: string;
  role: StaffRole;
  branchId: number | null;
  permissions: Permission[];
}

export async function insertStaff(db: Executor, v: StaffValues): Promise<number> {
  const row = await db
    .insertInto('staff_users')
    .values({
      email: v.email,
      password_hash: v.passwordHash,
      role: v.role,
      branch_id: v.branchId,
      permissions: v.permissions,
      updated_at: sql<Date>`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface StaffChanges {
  role?: StaffRole;
  branchId?: number | null;
  permissions?: Permission[];
  isActive?: boolean;
  passwordHash?: string;
  /** Voids the user's access tokens issued up to now. */
  voidTokens?: boolean;
}

/**
 * A token cutoff at `at` by this process's clock, which also sets the iat of the tokens it signs (the database's
 * may differ). It never moves back: a later cutoff set by an instance whose clock runs ahead stays. Tokens signed
 * after the last cutoff carry an iat of the second after it (auth/staff-jwt.ts), which may be later than `at`: the
 * new cutoff reaches to the end of that second too, or a log out right after a log in would leave its token good.
 */
const cutoffAt = (at: Date) =>
  sql<Date>`greatest(date_trunc('second', tokens_valid_after) + interval '1 second', ${at.toISOString()}::timestamptz)`;

export async function updateStaffRow(db: Executor, id: number, c: StaffChanges): Promise<void> {
  await db
    .updateTable('staff_users')
    .set({
      ...(c.role !== undefined && { role: c.role }),
      ...(c.branchId !== undefined && { branch_id: c.branchId }),
      ...(c.permissions !== undefined && { permissions: c.permissions }),
      ...(c.isActive !== undefined && { is_active: c.isActive }),
      ...(c.passwordHash !== undefined && { password_hash: c.passwordHash }),
      ...(c.voidTokens && { tokens_valid_after: cutoffAt(new Date()) }),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function replaceExchanges(db: Executor, staffUserId: number, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('staff_user_exchanges').where('staff_user_id', '=', staffUserId).execute();
  if (ids.length > 0)
    await db
      .insertInto('staff_user_exchanges')
      .values(ids.map((e) => ({ staff_user_id: staffUserId, exchange_id: e })))
      .execute();
}

/** Log out everywhere: the user's tokens issued up to `at` are void. Not a change of the user (updated_at stays). */
export async function voidTokens(db: Executor, id: number, at: Date): Promise<void> {
  await db
    .updateTable('staff_users')
    .set({ tokens_valid_after: cutoffAt(at) })
    .where('id', '=', id)
    .execute();
}

/** Active superadmins other than `exceptId`, locked so that two of them cannot demote each other at once. */
export async function otherActiveSuperadmins(db: Executor, exceptId: number): Promise<number> {
  const rows = await db
    .selectFrom('staff_users')
    .select('id')
    .where('role', '=', 'superadmin')
    .where('is_active', '=', true)
    .where('id', '<>', exceptId)
    .forUpdate()
    .execute();
  return rows.length;
}

export async function anySuperadmin(db: Executor): Promise<boolean> {
  return Boolean(
    await db.selectFrom('staff_users').select('id').where('role', '=', 'superadmin').limit(1).executeTakeFirst(),
  );
}

/** A staff user with its exchanges, as read on every staff request (roles and scope apply at request time). */
export function findStaffForAuth(db: Executor, by: { id: number } | { email: string }) {
  let q = db
    .selectFrom('staff_users as s')
    .select([
      's.id',
      's.email',
      's.role',
      's.branch_id',
      's.permissions',
      's.is_active',
      's.password_hash',
      's.tokens_valid_after',
      exchangeIds.as('exchange_ids'),
    ]);
  q = 'id' in by ? q.where('s.id', '=', by.id) : q.where('s.email', '=', by.email.toLowerCase());
  return q.executeTakeFirst();
}

/**
 * Creates a superadmin unless one exists, in one statement; the email's unique constraint settles two
 * instances starting at once. True when it was created.
 */
export async function insertFirstSuperadmin(db: Executor, email: string, passwordHash: string): Promise<boolean> {
  const result = await sql`
    insert into staff_users (email, password_hash, role, branch_id, permissions)
    select ${email}, ${passwordHash}, 'superadmin', null, '{}'
    where not exists (select 1 from staff_users where role = 'superadmin')
    on conflict (email) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}
