import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The first and last order of a branch, read by the orders list to bound its walk of the primary key
 * (features/orders/branch-range.ts): without the bound, a page sorted by id (the default) first skips every order of
 * the other branches before the branch's first one; on 1,000,000 orders the first page ran at 0.55 of a 2,000-order
 * branch (`npm run bench -- --scale`, docs/scaling.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'create index orders_branch_id_idx on orders (branch_id, id);');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'drop index orders_branch_id_idx;');
}
