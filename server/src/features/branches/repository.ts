import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';

const COLUMNS: Record<string, string> = { id: 'id', name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' };

// Branches are the partition itself: the list has no scope (superadmin only).
const branchesPage = pageQuery(
  (db, _: Record<string, never>) => db.selectFrom('branches'),
  COLUMNS,
  (qb) => qb.selectAll(),
);

export type BranchRow = { id: number; name: string; is_sandbox: boolean; created_at: Date; updated_at: Date };

export function listBranches(db: Executor, params: ListParams) {
  return branchesPage(db, {}, params);
}

export function insertBranch(db: Executor, name: string, isSandbox: boolean) {
  return db.insertInto('branches').values({ name, is_sandbox: isSandbox }).returningAll().executeTakeFirstOrThrow();
}

export function updateBranch(db: Executor, id: number, fields: { name?: string; is_sandbox?: boolean }) {
  return db
    .updateTable('branches')
    .set({ ...fields, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function branchExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('branches').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Whether the branch is a sandbox; false for a branch that does not exist. */
export async function isSandbox(db: Executor, id: number): Promise<boolean> {
  const row = await db.selectFrom('branches').select('is_sandbox').where('id', '=', id).executeTakeFirst();
  return row?.is_sandbox ?? false;
}

/** A branch as it stands, locked until the change that reads it commits. */
export function findBranch(db: Executor, id: number) {
  return db.selectFrom('branches').selectAll().where('id', '=', id).forUpdate().executeTakeFirst() as Promise<
    BranchRow | undefined
  >;
}
