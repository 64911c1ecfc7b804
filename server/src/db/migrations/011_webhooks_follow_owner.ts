import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * A staff user's webhooks belong to the branch the user is in (features/staff moves them with the user since this
 * change): the ones of users moved earlier were left under their old branch, whose admin could read and run them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    update webhooks w set branch_id = s.branch_id, updated_at = now()
    from staff_users s
    where s.id = w.staff_user_id and w.branch_id is distinct from s.branch_id;`,
  );
}

/** Nothing to undo: the rows now say where their owners are. */
export async function down(): Promise<void> {}
