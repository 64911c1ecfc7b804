import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { OrderStatus } from '../../db/schema.js';
import { inScope, type Scope } from '../../db/scope.js';
import { ORDER_STATUSES } from './transitions.js';

// The back office's reads of orders beyond the list: the counter's search, an order's client, the home page's summary.
const SCOPE_COLUMNS = { branch: 'o.branch_id', exchange: 'o.cashbox_id' };
const HASHED_ID = /^[0-9a-f]{24}$/i;
const OPEN: readonly OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'];

function ordersOf(db: Executor, scope: Scope) {
  return inScope(db.selectFrom('orders as o'), scope, SCOPE_COLUMNS);
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Orders in scope whose id (with or without #) or hashed id is the text, or, `byClient`, whose client's name, email or
 * phone contains it; newest first. The client match reads the clients of the caller's orders, which is a back
 * office's search, not a hot path. Without `byClient` the search must not match on a client's details either: which
 * orders a name or email finds would tell who the clients are.
 */
export function searchOrders(db: Executor, scope: Scope, text: string, limit: number, byClient: boolean) {
  const q = text.trim();
  const digits = q.replace(/[^\d]/g, '');
  const matches = byClient ? [sql<boolean>`c.email ilike ${contains(q)}`, sql<boolean>`(c.first_name || ' ' || c.last_name) ilike ${contains(q)}`] : [];
  // "#42", as the console shows an order, is order 42.
  const id = /^#?(\d{1,9})$/.exec(q)?.[1];
  if (id) matches.push(sql<boolean>`o.id = ${Number(id)}`);
  if (HASHED_ID.test(q)) matches.push(sql<boolean>`o.hashed_id = ${q.toLowerCase()}`);
  if (byClient && digits.length >= 4) matches.push(sql<boolean>`c.phone like ${contains(digits)}`);
  // Text that can match nothing (a name typed without clients:read) needs no round trip.
  if (matches.length === 0) return Promise.resolve([]);
  return ordersOf(db, scope)
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .leftJoin('clients as c', 'c.id', 'o.user_id')
    .selectAll('o')
    .select(['c1.code as c1_code', 'c2.code as c2_code', 'c.first_name', 'c.last_name', 'c.email as client_email', 'c.phone as client_phone'])
    .where(sql<boolean>`(${sql.join(matches, sql` or `)})`)
    .orderBy('o.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The clients of a page of orders, by id (the ids come from orders already read in the caller's scope): one query
 * by primary key for the page, not a join in the list's own query, whose plans are tuned for the list alone.
 */
export async function clientsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { id: number; first_name: string; last_name: string; email: string; phone: string }>();
  const rows = await db.selectFrom('clients').select(['id', 'first_name', 'last_name', 'email', 'phone'])
    .where('id', '=', sql<number>`any(${[...new Set(ids)]}::int[])`).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The client of an order in scope (the route asks for clients:read as well as orders:read). */
export function findOrderClient(db: Executor, scope: Scope, orderId: number) {
  return ordersOf(db, scope)
    .innerJoin('clients as c', 'c.id', 'o.user_id')
    .select(['c.id', 'c.first_name', 'c.last_name', 'c.email', 'c.phone', 'c.created_at', 'c.updated_at'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
}

/** How many orders in scope were created since `since`, by their status now (every status present, 0 when none). */
export async function countByStatusSince(db: Executor, scope: Scope, since: Date): Promise<Record<OrderStatus, number>> {
  const rows = await ordersOf(db, scope)
    .select(['o.status', sql<number>`count(*)::int`.as('n')])
    .where('o.created_at', '>=', since)
    .groupBy('o.status')
    .execute();
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

/** Open orders in scope that have gone longest without a change: the ones a counter should look at first. */
export function waitingLongest(db: Executor, scope: Scope, limit: number) {
  return ordersOf(db, scope)
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .select(['o.id', 'o.hashed_id', 'o.status', 'o.cashbox_id', 'o.client_amount', 'o.exchange_amount', 'o.created_at', 'o.updated_at',
      'c1.code as c1_code', 'c2.code as c2_code'])
    .where('o.status', 'in', [...OPEN])
    .orderBy('o.updated_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
}
