import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The moment up to which a staff user's access tokens are void (null: none). A password change, a deactivation
 * and a log out set it; staff authentication refuses a token issued at or before it (auth/staff-jwt.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'alter table staff_users add column tokens_valid_after timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'alter table staff_users drop column tokens_valid_after;');
}
