import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** A staff user with its exchanges, as read on every staff request (roles and scope apply at request time). */
export function findStaffForAuth(db: Executor, by: { id: number } | { email: string }) {
  let q = db.selectFrom('staff_users as s')
    .select(['s.id', 's.email', 's.role', 's.branch_id', 's.permissions', 's.is_active', 's.password_hash',
      sql<number[]>`array(select e.exchange_id from staff_user_exchanges e where e.staff_user_id = s.id order by 1)`.as('exchange_ids')]);
  q = 'id' in by ? q.where('s.id', '=', by.id) : q.where('s.email', '=', by.email.toLowerCase());
  return q.executeTakeFirst();
}
