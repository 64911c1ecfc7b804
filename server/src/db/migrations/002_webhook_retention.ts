import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/** Finished deliveries by age, for the worker's retention sweep (pending ones are never pruned). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
create index webhook_deliveries_finished_idx on webhook_deliveries (updated_at) where status <> 'pending';
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'drop index webhook_deliveries_finished_idx;');
}
