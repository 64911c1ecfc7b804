import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { visibleTo, type Visibility } from './repository.js';

/** Visible webhooks that are failing or were deactivated: inactive ones first, then by how many attempts failed in a row. */
export function webhooksInTrouble(db: Executor, v: Visibility, limit: number) {
  return db.selectFrom('webhooks as w').selectAll('w')
    .where(visibleTo(v))
    .where(sql<boolean>`(not w.is_active or w.fail_count > 0)`)
    .orderBy('w.is_active')
    .orderBy('w.fail_count', 'desc')
    .orderBy('w.id')
    .limit(limit)
    .execute();
}
