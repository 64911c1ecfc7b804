import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';

const COLUMNS: Record<string, string> = { id: 'id', name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' };

// Branches are the partition itself: the list has no scope (superadmin only).
const branchesPage = pageQuery((db, _: Record<string, never>) => db.selectFrom('branches'), COLUMNS, (qb) => qb.selectAll());

export type BranchRow = { id: number; name: string; created_at: Date; updated_at: Date };

export function listBranches(db: Executor, params: ListParams) {
  return branchesPage(db, {}, params);
}

export function insertBranch(db: Executor, name: string) {
  return db.insertInto('branches').values({ name }).returningAll().executeTakeFirstOrThrow();
}

export async function branchExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('branches').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
