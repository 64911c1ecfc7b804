import { sql } from 'kysely';
import { branchScope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import { scopeCondition, scopeValues, type Scope, type ScopeValues } from '../../db/scope.js';

/**
 * Clients belong to a branch and are associated with exchanges: a branch-wide caller reaches every client of
 * its branch, an exchange-scoped one the clients sharing at least one exchange with it.
 */
function clientScopeCondition(scope: Scope, alias: string) {
  const branch = scopeCondition(branchScope(scope), { branch: `${alias}.branch_id` });
  if (scope.exchangeIds === null) return branch;
  return sql<boolean>`(${branch} and exists (
    select 1 from client_exchanges ce where ce.client_id = ${sql.ref(`${alias}.id`)} and ce.exchange_id = any(${scope.exchangeIds as number[]}::int[])))`;
}

const FIELDS = ['id', 'branch_id', 'first_name', 'last_name', 'email', 'phone', 'created_at', 'updated_at'] as const;
const COLUMNS = FIELDS.map((f) => `c.${f}` as const);

export interface ClientFields {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

export function insertClient(db: Executor, branchId: number, fields: ClientFields) {
  return db
    .insertInto('clients')
    .values({ branch_id: branchId, ...fields, updated_at: sql`now()` })
    .returning(FIELDS)
    .executeTakeFirstOrThrow();
}

/** Associates a client with every exchange of `scope` (its branch's for a branch-wide caller). Returns how many. */
export async function associateWithScope(db: Executor, clientId: number, scope: Scope): Promise<number> {
  const result = await db
    .insertInto('client_exchanges')
    .columns(['client_id', 'exchange_id'])
    .expression((eb) =>
      eb
        .selectFrom('exchanges as e')
        .select([sql<number>`${clientId}::int`.as('client_id'), 'e.id'])
        .where(scopeCondition(scope, { branch: 'e.branch_id', exchange: 'e.id' })),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export function findClient(db: Executor, scope: Scope, id: number) {
  return db
    .selectFrom('clients as c')
    .select(COLUMNS)
    .where('c.id', '=', id)
    .where(clientScopeCondition(scope, 'c'))
    .executeTakeFirst();
}

/** A client a new order names, in the key's scope. */
export function findClientRef(db: Executor, scope: Scope, id: number) {
  return db
    .selectFrom('clients as c')
    .select(['c.id', 'c.branch_id'])
    .where('c.id', '=', id)
    .where(clientScopeCondition(scope, 'c'))
    .executeTakeFirst();
}

export function updateClient(db: Executor, scope: Scope, id: number, fields: Partial<ClientFields>) {
  return db
    .updateTable('clients as c')
    .set({ ...fields, updated_at: sql`now()` })
    .where('c.id', '=', id)
    .where(clientScopeCondition(scope, 'c'))
    .returning(COLUMNS)
    .executeTakeFirst();
}

/**
 * The exact number of a branch-wide caller's clients (every branch's for a superadmin), from the counters the
 * triggers of migration 015 keep per branch: a row or a few, whatever the history. An exchange-scoped caller's
 * clients are those sharing an exchange with it, which no counter follows: its count stays capped.
 */
function clientCount(scope: ScopeValues) {
  if (scope.exchangeIds !== null) return null;
  return sql<number>`(select coalesce(sum(cc.n), 0)::int from client_counts cc where ${scope.branchId === null ? sql<boolean>`true` : sql<boolean>`cc.branch_id = ${scope.branchId}`})`;
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type ClientSearch = {
  branchId: number | null;
  exchangeIds: readonly number[] | null;
  pattern: string | null;
  digits: string | null;
};

const clientsPage = pageQuery(
  (db, p: ClientSearch) => {
    let qb = db.selectFrom('clients as c').where(clientScopeCondition(p, 'c'));
    if (p.pattern !== null) {
      const matches = [
        sql<boolean>`c.email ilike ${p.pattern}`,
        sql<boolean>`(c.first_name || ' ' || c.last_name) ilike ${p.pattern}`,
      ];
      if (p.digits !== null) matches.push(sql<boolean>`c.phone like ${p.digits}`);
      qb = qb.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
    }
    return qb;
  },
  { id: 'c.id' },
  (qb) => qb.select(COLUMNS),
  {
    planEachTime: true,
    exactTotal: (p, conditions) => (conditions.length > 0 || p.pattern !== null ? null : clientCount(p)),
  },
);

/** Clients in scope whose name, email or phone contains `q` (every one without it), newest first, and how many match. */
export function searchClients(db: Executor, scope: Scope, q: string | undefined, params: ListParams) {
  const text = q?.trim() || null;
  const digits = text?.replace(/[^\d]/g, '') ?? '';
  return clientsPage(
    db,
    {
      branchId: scope.branchId,
      exchangeIds: scope.exchangeIds,
      pattern: text === null ? null : contains(text),
      digits: text !== null && digits.length >= 4 ? contains(digits) : null,
    },
    params,
  );
}

const LIST_COLUMNS: Record<string, string> = {
  id: 'c.id',
  email: 'c.email',
  phone: 'c.phone',
  createdAt: 'c.created_at',
  updatedAt: 'c.updated_at',
};

const partnerClientsPage = pageQuery(
  (db, scope: ScopeValues) => db.selectFrom('clients as c').where(clientScopeCondition(scope, 'c')),
  LIST_COLUMNS,
  (qb) => qb.select(COLUMNS),
  {
    planEachTime: true,
    exactTotal: (scope, conditions) => (conditions.length > 0 ? null : clientCount(scope)),
  },
);

/** A page of the clients in scope, filtered by exact email or phone (the partner list). */
export function listClients(db: Executor, scope: Scope, params: ListParams) {
  return partnerClientsPage(db, scopeValues(scope), params);
}
