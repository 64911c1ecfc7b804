import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Issue 39: a cashbox's orders in a time window, newest first (what a partner polls and an operator's board
 * reads): one range of this index gives the page in order and counts its matches without reading the table.
 * Without it the count intersected the window with every order of the cashbox (250,000 index entries for 2,681
 * matches on 1,000,000 orders).
 *
 * The index of migration 010 (branch_id, id) duplicates orders_branch_idx of the first migration, which answers the
 * orders list's branch bound (features/orders/branch-range.ts) as well; it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
create index orders_branch_cashbox_created_idx on orders (branch_id, cashbox_id, created_at, id);
drop index orders_branch_id_idx;
`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
create index orders_branch_id_idx on orders (branch_id, id);
drop index orders_branch_cashbox_created_idx;
`);
}
