import { sql } from 'kysely';
import type { Scope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import { clientScopeCondition } from './repository.js';

const COLUMNS = ['c.id', 'c.branch_id', 'c.first_name', 'c.last_name', 'c.email', 'c.phone', 'c.created_at', 'c.updated_at'] as const;

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Clients in scope whose name, email or phone contains `q` (every one without it), newest first, and how many match. */
export async function searchClients(db: Executor, scope: Scope, q: string | undefined, page: { skip: number; limit: number }) {
  let base = db.selectFrom('clients as c').where(clientScopeCondition(scope, 'c'));
  const text = q?.trim();
  if (text) {
    const digits = text.replace(/[^\d]/g, '');
    const matches = [sql<boolean>`c.email ilike ${contains(text)}`, sql<boolean>`(c.first_name || ' ' || c.last_name) ilike ${contains(text)}`];
    if (digits.length >= 4) matches.push(sql<boolean>`c.phone like ${contains(digits)}`);
    base = base.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
  }
  const [rows, count] = await Promise.all([
    base.select(COLUMNS).orderBy('c.id', 'desc').offset(page.skip).limit(page.limit).execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}
