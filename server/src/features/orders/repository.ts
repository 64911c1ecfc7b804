import { CompiledQuery, sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import { pageQuery, type ExactTotal, type ListParams } from '../../db/list.js';
import type { NewOrder, OrderStatus } from '../../db/schema.js';
import { inScope, scopeCondition, scopeValues, updateInScope, type Scope } from '../../db/scope.js';
import { eventValues, withEvent, type EventValues, type OutboxEvent } from '../delivery/outbox.js';
import { branchIdBound } from './branch-range.js';
import { EXPIRABLE, ORDER_STATUSES } from './transitions.js';

/** Orders are exchange-scoped: the caller's branch and, for an operator, the exchanges it is assigned to. */
const SCOPE_COLUMNS = { branch: 'o.branch_id', exchange: 'o.cashbox_id' };

export const ORDER_COLUMNS: Record<string, string> = {
  id: 'o.id',
  hashedId: 'o.hashed_id',
  status: 'o.status',
  cashboxId: 'o.cashbox_id',
  userId: 'o.user_id',
  operationType: 'o.operation_type',
  createdAt: 'o.created_at',
  updatedAt: 'o.updated_at',
  clientAmount: 'o.client_amount',
  exchangeAmount: 'o.exchange_amount',
  source: 'o.source',
};

function ordersInScope(db: Executor, scope: Scope) {
  return inScope(db.selectFrom('orders as o'), scope, SCOPE_COLUMNS);
}

/**
 * Orders with their currencies' codes and the login of the cashier who placed a counter order, as every read
 * returns them (a join by primary key, null for partner orders).
 */
function withCodes(q: ReturnType<typeof ordersInScope>) {
  return q
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .leftJoin('staff_users as cs', 'cs.id', 'o.created_by_staff_id')
    .selectAll('o')
    .select(['c1.code as c1_code', 'c2.code as c2_code', 'cs.email as created_by_email']);
}

export type OrderRow = Awaited<ReturnType<typeof findOrder>> & {};

export function findOrder(db: Executor, scope: Scope, id: number) {
  return withCodes(ordersInScope(db, scope)).where('o.id', '=', id).executeTakeFirst();
}

/**
 * The exact count of an unfiltered list or one filtered on status, exchange and operation type, from the counters
 * the triggers of migrations 005 and 016 keep per (branch, exchange, status, operation type): a few rows summed,
 * whatever the history.
 */
const COUNTED: Record<string, string> = {
  status: 'oc.status',
  cashboxId: 'oc.cashbox_id',
  operationType: 'oc.operation_type',
};
const exactTotal: ExactTotal<Scope> = (scope, conditions) => {
  if (!conditions.every((c) => c.op === 'eq' && Object.hasOwn(COUNTED, c.field))) return null;
  const parts = [scopeCondition(scope, { branch: 'oc.branch_id', exchange: 'oc.cashbox_id' })];
  for (const c of conditions) parts.push(sql<boolean>`${sql.ref(COUNTED[c.field]!)} = ${c.value}`);
  return sql<number>`(select coalesce(sum(oc.n), 0)::int from order_counts oc where ${sql.join(parts, sql` and `)})`;
};

/** A whole branch's orders per day (migration 016), for the total of a window. */
const dayCounts = (scope: Scope) =>
  scope.branchId === null || scope.exchangeIds !== null
    ? null
    : { table: 'order_days', where: sql<boolean>`branch_id = ${scope.branchId}` };

const ordersPage = pageQuery(ordersInScope, ORDER_COLUMNS, withCodes, {
  exactTotal,
  dayCounts,
  pageBound: branchIdBound,
  planEachTime: true,
});

export function listOrders(db: Executor, scope: Scope, params: ListParams) {
  return ordersPage(db, scopeValues(scope), params);
}

/**
 * Draws the id of an order about to be created, so that its event can name it and the order, its history row
 * and its deliveries can be written in one statement. A request that fails validation leaves a gap, as a
 * rolled-back insert always did.
 */
export async function reserveOrderId(db: Executor): Promise<number> {
  const { rows } = await db.executeQuery(NEXT_ORDER_ID);
  return rows[0]!.id;
}

const NEXT_ORDER_ID = CompiledQuery.raw("select nextval('orders_id_seq')::int as id") as CompiledQuery<{ id: number }>;

/**
 * Writes a new order, its first history row and its event's deliveries in one statement (the outbox's
 * withEvent), which commits or fails as a whole without a transaction of its own, and returns the order as
 * findOrder would (the codes are known).
 */
export async function insertNewOrder(
  db: Executor,
  order: CreatedOrder,
  codes: { c1_code: string; c2_code: string; created_by_email: string | null },
  history: HistoryRow,
  event: OutboxEvent,
): Promise<OrderRow> {
  const row = await newOrderStatement(db, newOrderValues(order, history, event));
  // The row itself, with the codes added: copied by rest and spread, it was promoted garbage (docs/decisions.md).
  return Object.assign(row, codes);
}

/**
 * The statement's values as one object literal with every field named: built by spreading the order and
 * adding the other 12 fields, the object left about 7 KB per order to be promoted to the old generation (a
 * mark-compact every 10 s at 150 orders/s instead of none, as --trace-gc-nvp showed).
 */
function newOrderValues(o: CreatedOrder, history: HistoryRow, event: OutboxEvent): NewOrderValues & EventValues {
  const h = historyValues(history);
  const d = eventValues(event);
  return {
    id: o.id,
    hashed_id: o.hashed_id,
    branch_id: o.branch_id,
    cashbox_id: o.cashbox_id,
    currency1_id: o.currency1_id,
    currency2_id: o.currency2_id,
    client_amount: o.client_amount,
    exchange_amount: o.exchange_amount,
    operation_type: o.operation_type,
    offer_id: o.offer_id,
    rate: o.rate,
    is_reverse: o.is_reverse,
    reference_rate: o.reference_rate,
    user_id: o.user_id,
    payment_method_source_id: o.payment_method_source_id,
    payment_method_dest_id: o.payment_method_dest_id,
    comment: o.comment,
    client_comment: o.client_comment,
    user_wallet: o.user_wallet,
    tg_nick_name: o.tg_nick_name,
    created_by_key_id: o.created_by_key_id,
    source: o.source,
    created_by_staff_id: o.created_by_staff_id,
    sandbox: o.sandbox,
    expires_at: o.expires_at,
    historyOrderId: h.order_id,
    historyFrom: h.from_status,
    historyTo: h.to_status,
    actorType: h.actor_type,
    actorKeyId: h.api_key_id,
    actorStaffId: h.staff_user_id,
    historyComment: h.comment,
    eventId: d.eventId,
    event: d.event,
    body: d.body,
    branchId: d.branchId,
    exchangeId: d.exchangeId,
    isOrderEvent: d.isOrderEvent,
  };
}

/** The columns order creation sets; a field added to createOrder's literal fails to compile until listed here. */
export type CreatedOrder = Required<
  Pick<
    NewOrder,
    | 'hashed_id'
    | 'branch_id'
    | 'cashbox_id'
    | 'currency1_id'
    | 'currency2_id'
    | 'client_amount'
    | 'exchange_amount'
    | 'operation_type'
    | 'offer_id'
    | 'rate'
    | 'is_reverse'
    | 'reference_rate'
    | 'user_id'
    | 'payment_method_source_id'
    | 'payment_method_dest_id'
    | 'comment'
    | 'client_comment'
    | 'user_wallet'
    | 'tg_nick_name'
    | 'created_by_key_id'
    | 'source'
    | 'created_by_staff_id'
    | 'sandbox'
  >
> & { id: number; expires_at: Date | null };

type NewOrderValues = CreatedOrder & {
  historyOrderId: number;
  historyFrom: OrderStatus | null;
  historyTo: OrderStatus;
  actorType: HistoryActor['type'];
  actorKeyId: string | null;
  actorStaffId: number | null;
  historyComment: string | null;
};

/**
 * Memoized (db/memo.ts): building and compiling this statement with Kysely took 23 µs and 26 KB of short-lived
 * objects per order (a fifth of all it allocated), and its garbage sets how often V8 collects.
 */
const newOrderStatement = withEvent<NewOrderValues, OrderRow>((db, p) => {
  const { historyOrderId, historyFrom, historyTo, actorType, actorKeyId, actorStaffId, historyComment, ...order } = p;
  return db
    .with('written', (qc) => qc.insertInto('orders').values(order).returningAll())
    .with('history', (qc) =>
      qc.insertInto('order_status_history').values({
        order_id: historyOrderId,
        from_status: historyFrom,
        to_status: historyTo,
        actor_type: actorType,
        api_key_id: actorKeyId,
        staff_user_id: actorStaffId,
        comment: historyComment,
      }),
    );
});

/** Locks the order row for the rest of the transaction, so concurrent moves of one order run one after another. */
export function lockOrder(tx: Tx, scope: Scope, id: number) {
  return ordersInScope(tx, scope)
    .select([
      'o.id',
      'o.status',
      'o.branch_id',
      'o.cashbox_id',
      'o.sandbox',
      'o.created_by_key_id',
      'o.currency1_id',
      'o.currency2_id',
      'o.client_amount',
      'o.exchange_amount',
    ])
    .where('o.id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Moves only from the status the caller decided on: a second guard beside the row lock. A move past the payment
 * (or a cancel) ends the payment window, so the order leaves the expiry index.
 */
export async function updateStatus(
  tx: Tx,
  scope: Scope,
  id: number,
  from: OrderStatus,
  to: OrderStatus,
): Promise<boolean> {
  const result = await updateInScope(tx.updateTable('orders as o'), scope, SCOPE_COLUMNS)
    .set(
      EXPIRABLE.includes(to)
        ? { status: to, updated_at: sql`now()` }
        : { status: to, updated_at: sql`now()`, expires_at: null },
    )
    .where('o.id', '=', id)
    .where('o.status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// The status history of orders: one row per move, written with the move (or with the order, for its first), and
// read in the order's scope.
const ORDER_SCOPE = { branch: 'o.branch_id', exchange: 'o.cashbox_id' };

export type HistoryActor =
  | { type: 'api_key'; apiKeyId: string; staffUserId: number | null }
  | { type: 'staff'; staffUserId: number }
  | { type: 'system' };

export interface HistoryRow {
  orderId: number;
  from: OrderStatus | null;
  to: OrderStatus;
  actor: HistoryActor;
  comment?: string | null;
}

export async function insertHistory(tx: Tx, h: HistoryRow): Promise<void> {
  await tx.insertInto('order_status_history').values(historyValues(h)).execute();
}

export function historyValues(h: HistoryRow) {
  return {
    order_id: h.orderId,
    from_status: h.from,
    to_status: h.to,
    actor_type: h.actor.type,
    api_key_id: h.actor.type === 'api_key' ? h.actor.apiKeyId : null,
    staff_user_id: h.actor.type === 'system' ? null : h.actor.staffUserId,
    comment: h.comment ?? null,
  };
}

/** The history of an order in scope, oldest first, with the login of the staff user behind each move. */
export function listHistory(db: Executor, scope: Scope, orderId: number) {
  return (
    inScope(
      db.selectFrom('order_status_history as h').innerJoin('orders as o', 'o.id', 'h.order_id'),
      scope,
      ORDER_SCOPE,
    )
      // The staff user's login names them in the console; a deleted or never-existing one leaves it null.
      .leftJoin('staff_users as s', 's.id', 'h.staff_user_id')
      .select([
        'h.from_status',
        'h.to_status',
        'h.actor_type',
        'h.api_key_id',
        'h.staff_user_id',
        's.email as staff_email',
        'h.comment',
        'h.created_at',
      ])
      .where('o.id', '=', orderId)
      .orderBy('h.id')
      .execute()
  );
}

export interface ChangeRow {
  id: number;
  orderId: number;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  branchId: number;
  exchangeId: number;
  at: Date;
}

/** The newest history id: a feed of changes starts after it. */
export async function lastChangeId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('order_status_history')
    .select(sql<string | number | null>`max(id)`.as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Every order change (a new order or a move) after `afterId` but those already `seen`, oldest first, with where
 * its order lives. Each change writes a history row, and reading them by primary key is an index range scan
 * however large the tables grow. Unscoped: the order feed applies each listener's scope (order-feed/visibility.ts).
 */
export async function changesAfter(
  db: Executor,
  afterId: number,
  seen: readonly number[],
  limit: number,
): Promise<ChangeRow[]> {
  const rows = await db
    .selectFrom('order_status_history as h')
    .innerJoin('orders as o', 'o.id', 'h.order_id')
    .select(['h.id', 'h.order_id', 'h.from_status', 'h.to_status', 'h.created_at', 'o.branch_id', 'o.cashbox_id'])
    .where('h.id', '>', String(afterId))
    .where(sql<boolean>`not (h.id = any(${seen.map(String)}::bigint[]))`)
    .orderBy('h.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    orderId: r.order_id,
    fromStatus: r.from_status,
    toStatus: r.to_status,
    branchId: r.branch_id,
    exchangeId: r.cashbox_id,
    at: r.created_at,
  }));
}

// The back office's reads of orders beyond the list: the counter's search, an order's client, the home page's summary.
const HASHED_ID = /^[0-9a-f]{24}$/i;
const OPEN: readonly OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'];

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
  const matches = byClient
    ? [
        sql<boolean>`c.email ilike ${contains(q)}`,
        sql<boolean>`(c.first_name || ' ' || c.last_name) ilike ${contains(q)}`,
      ]
    : [];
  // "#42", as the console shows an order, is order 42.
  const id = /^#?(\d{1,9})$/.exec(q)?.[1];
  if (id) matches.push(sql<boolean>`o.id = ${Number(id)}`);
  if (HASHED_ID.test(q)) matches.push(sql<boolean>`o.hashed_id = ${q.toLowerCase()}`);
  if (byClient && digits.length >= 4) matches.push(sql<boolean>`c.phone like ${contains(digits)}`);
  // Text that can match nothing (a name typed without clients:read) needs no round trip.
  if (matches.length === 0) return Promise.resolve([]);
  return withCodes(ordersInScope(db, scope))
    .leftJoin('clients as c', 'c.id', 'o.user_id')
    .select(['c.first_name', 'c.last_name', 'c.email as client_email', 'c.phone as client_phone'])
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
  if (ids.length === 0)
    return new Map<number, { id: number; first_name: string; last_name: string; email: string; phone: string }>();
  const rows = await db
    .selectFrom('clients')
    .select(['id', 'first_name', 'last_name', 'email', 'phone'])
    .where('id', '=', sql<number>`any(${[...new Set(ids)]}::int[])`)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The office an order in scope was placed at, as its receipt names it and tells its time. */
export function findOrderOffice(db: Executor, scope: Scope, orderId: number) {
  return ordersInScope(db, scope)
    .innerJoin('exchanges as e', 'e.id', 'o.cashbox_id')
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .select(['e.name', 'e.address', 'e.city', 'e.timezone', 'c1.decimals as c1_decimals', 'c2.decimals as c2_decimals'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
}

/** The client of an order in scope (the route asks for clients:read as well as orders:read). */
export function findOrderClient(db: Executor, scope: Scope, orderId: number) {
  return ordersInScope(db, scope)
    .innerJoin('clients as c', 'c.id', 'o.user_id')
    .select(['c.id', 'c.first_name', 'c.last_name', 'c.email', 'c.phone', 'c.created_at', 'c.updated_at'])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
}

/** How many orders in scope were created since `since`, by their status now (every status present, 0 when none). */
export async function countByStatusSince(
  db: Executor,
  scope: Scope,
  since: Date,
): Promise<Record<OrderStatus, number>> {
  const rows = await ordersInScope(db, scope)
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
  return ordersInScope(db, scope)
    .innerJoin('currencies as c1', 'c1.id', 'o.currency1_id')
    .innerJoin('currencies as c2', 'c2.id', 'o.currency2_id')
    .select([
      'o.id',
      'o.hashed_id',
      'o.status',
      'o.cashbox_id',
      'o.client_amount',
      'o.exchange_amount',
      'o.created_at',
      'o.updated_at',
      'c1.code as c1_code',
      'c2.code as c2_code',
    ])
    .where('o.status', 'in', [...OPEN])
    .orderBy('o.updated_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
}

// The payment window's expiry job (expiry.ts). Unscoped, as the system acts for every branch; each cancel then runs
// in its order's branch. The conditions are written out, not bound, so the planner can see that they match the
// partial index of migration 018 whatever plan a prepared statement gets.
const EXPIRING = sql<boolean>`o.expires_at is not null and o.status in ('ORDERINIT', 'CLIENTPAYMENTWAIT')`;

/**
 * The order whose window ran out first, locked for the caller's transaction; one another worker holds is skipped,
 * so workers racing over the same due orders each take a different one.
 */
export function lockDueOrder(tx: Tx, passOver: readonly number[]) {
  return tx
    .selectFrom('orders as o')
    .select(['o.id', 'o.branch_id'])
    .where(EXPIRING)
    .where('o.expires_at', '<=', sql<Date>`now()`)
    .where(sql<boolean>`not (o.id = any(${[...passOver]}::int[]))`)
    .orderBy('o.expires_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

/**
 * Milliseconds until the next order's window runs out (0 when one already has), by the database's clock, so the
 * workers' clocks do not matter; null when no order can expire.
 */
export async function msToNextExpiry(db: Executor, passOver: readonly number[]): Promise<number | null> {
  const row = await db
    .selectFrom('orders as o')
    .select(sql<string | number>`greatest(0, extract(epoch from (o.expires_at - clock_timestamp())) * 1000)`.as('ms'))
    .where(EXPIRING)
    .where(sql<boolean>`not (o.id = any(${[...passOver]}::int[]))`)
    .orderBy('o.expires_at')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.ms) : null;
}
