import { hashPassword } from '../../auth/password.js';
import type { Config } from '../../config/config.js';
import type { Executor } from '../../db/database.js';
import { anySuperadmin, insertFirstSuperadmin } from './repository.js';

export type BootstrapResult = 'created' | 'superadminExists' | 'emailTaken' | 'notConfigured';

/**
 * Creates the first superadmin from BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD when the database has
 * none, so a fresh production install can be reached without touching the database. The check and the insert
 * are one statement, and the email's unique constraint settles two instances starting at once.
 */
export async function bootstrapSuperadmin(db: Executor, admin: Config['bootstrapAdmin']): Promise<BootstrapResult> {
  if (!admin) return 'notConfigured';
  if (await anySuperadmin(db)) return 'superadminExists';
  if (await insertFirstSuperadmin(db, admin.email.toLowerCase(), await hashPassword(admin.password))) return 'created';
  return (await anySuperadmin(db)) ? 'superadminExists' : 'emailTaken';
}
