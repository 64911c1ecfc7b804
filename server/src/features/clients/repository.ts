import { sql } from 'kysely';
import { branchScope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import { scopeCondition, type Scope } from '../../db/scope.js';

/**
 * Clients belong to a branch and are associated with exchanges: a branch-wide caller reaches every client of
 * its branch, an exchange-scoped one the clients sharing at least one exchange with it.
 */
function clientScopeCondition(scope: Scope, alias: string) {
  const branch = scopeCondition(branchScope(scope), { branch: `${alias}.branch_id` });
  if (scope.exchangeIds === null) return branch;
  return sql<boolean>`(${branch} and exists (
    select 1 from client_exchanges ce where ce.client_id = ${sql.ref(`${alias}.id`)} and ce.exchange_id = any(${[...scope.exchangeIds]}::int[])))`;
}

const FIELDS = ['id', 'branch_id', 'first_name', 'last_name', 'email', 'phone', 'created_at', 'updated_at'] as const;
const COLUMNS = FIELDS.map((f) => `c.${f}` as const);

export interface ClientFields { first_name: string; last_name: string; email: string; phone: string }

export function insertClient(db: Executor, branchId: number, fields: ClientFields) {
  return db.insertInto('clients')
    .values({ branch_id: branchId, ...fields, updated_at: sql`now()` })
    .returning(FIELDS)
    .executeTakeFirstOrThrow();
}

/** Associates a client with every exchange of `scope` (its branch's for a branch-wide caller). Returns how many. */
export async function associateWithScope(db: Executor, clientId: number, scope: Scope): Promise<number> {
  const result = await db.insertInto('client_exchanges')
    .columns(['client_id', 'exchange_id'])
    .expression((eb) => eb.selectFrom('exchanges as e')
      .select([sql<number>`${clientId}::int`.as('client_id'), 'e.id'])
      .where(scopeCondition(scope, { branch: 'e.branch_id', exchange: 'e.id' })))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export function findClient(db: Executor, scope: Scope, id: number) {
  return db.selectFrom('clients as c')
    .select(COLUMNS)
    .where('c.id', '=', id)
    .where(clientScopeCondition(scope, 'c'))
    .executeTakeFirst();
}

/** A client a new order names, in the key's scope. */
export function findClientRef(db: Executor, scope: Scope, id: number) {
  return db.selectFrom('clients as c')
    .select(['c.id', 'c.branch_id'])
    .where('c.id', '=', id)
    .where(clientScopeCondition(scope, 'c'))
    .executeTakeFirst();
}

export function updateClient(db: Executor, scope: Scope, id: number, fields: Partial<ClientFields>) {
  return db.updateTable('clients as c')
    .set({ ...fields, updated_at: sql`now()` })
    .where('c.id', '=', id)
    .where(clientScopeCondition(scope, 'c'))
    .returning(COLUMNS)
    .executeTakeFirst();
}

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

const LIST_COLUMNS: Record<string, 'c.id' | 'c.email' | 'c.phone' | 'c.created_at' | 'c.updated_at'> = {
  id: 'c.id', email: 'c.email', phone: 'c.phone', createdAt: 'c.created_at', updatedAt: 'c.updated_at',
};

/** A page of the clients in scope, filtered by exact email or phone, and how many match (the partner list). */
export async function listClients(db: Executor, scope: Scope, params: ListParams) {
  let base = db.selectFrom('clients as c').where(clientScopeCondition(scope, 'c'));
  for (const [field, value] of Object.entries(params.filter)) base = base.where(LIST_COLUMNS[field], '=', value as string);
  let page = base.select(COLUMNS);
  for (const [field, dir] of params.sort) page = page.orderBy(LIST_COLUMNS[field], dir === 'ASC' ? 'asc' : 'desc');
  if (!params.sort.some(([field]) => field === 'id')) page = page.orderBy('c.id', 'asc');
  const [rows, count] = await Promise.all([
    page.offset(params.skip).limit(params.limit).execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}
