import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * A firm quote keeps the reference rate its offer's rate was made from (docs/rates.md), so an order placed on the
 * quote stores the reference it was really priced against, not the one its offer has moved to since. Null for
 * quotes of fixed-rate offers and for those taken before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `alter table quotes add column reference_rate numeric;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `alter table quotes drop column reference_rate;`);
}
