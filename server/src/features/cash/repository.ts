import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import { pageQuery, type ListParams } from '../../db/list.js';
import type { CashMovementKind } from '../../db/schema.js';
import { inScope, type Scope } from '../../db/scope.js';

const OPEN = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'] as const;

/** An exchange in the caller's scope (its branch; an operator's own exchanges). */
export function exchangeInScope(db: Executor, scope: Scope, id: number) {
  return inScope(db.selectFrom('exchanges as e'), scope, { branch: 'e.branch_id', exchange: 'e.id' })
    .select(['e.id', 'e.branch_id'])
    .where('e.id', '=', id)
    .executeTakeFirst();
}

export function findCurrency(db: Executor, id: number) {
  return db.selectFrom('currencies').select(['id', 'code', 'decimals']).where('id', '=', id).executeTakeFirst();
}

const positionColumns = [
  'p.exchange_id',
  'p.currency_id',
  'c.code',
  'c.decimals',
  'p.balance',
  'p.held',
  'p.low_watermark',
  'p.updated_at',
] as const;

export type PositionRow = Awaited<ReturnType<typeof findPosition>> & {};

/** The exchange's tracked positions, by currency id. The caller has checked the exchange is in scope. */
export function listPositions(db: Executor, exchangeId: number) {
  return db
    .selectFrom('cash_positions as p')
    .innerJoin('currencies as c', 'c.id', 'p.currency_id')
    .select(positionColumns)
    .where('p.exchange_id', '=', exchangeId)
    .orderBy('p.currency_id')
    .execute();
}

export function findPosition(db: Executor, exchangeId: number, currencyId: number, lock = false) {
  let q = db
    .selectFrom('cash_positions as p')
    .innerJoin('currencies as c', 'c.id', 'p.currency_id')
    .select(positionColumns)
    .where('p.exchange_id', '=', exchangeId)
    .where('p.currency_id', '=', currencyId);
  if (lock) q = q.forUpdate('p');
  return q.executeTakeFirst();
}

/**
 * Starts tracking a currency at an exchange if it is not tracked yet: its `held` starts as the payouts of the open
 * orders already there, which were placed without a hold.
 */
export async function trackPosition(tx: Tx, exchangeId: number, currencyId: number): Promise<void> {
  const tracked = await sql`
    select 1 from cash_positions where exchange_id = ${exchangeId} and currency_id = ${currencyId}`.execute(tx);
  if (tracked.rows.length > 0) return;
  // An order inserted while tracking starts would be neither in the sum below (not yet committed) nor held by the
  // insert trigger (no position yet). SHARE mode waits for the orders being written to commit and holds new ones back
  // until this transaction ends: a pause of order writes once in a position's life.
  await sql`lock table orders in share mode`.execute(tx);
  await sql`
    insert into cash_positions (exchange_id, currency_id, held)
    select ${exchangeId}, ${currencyId}, coalesce(sum(o.exchange_amount), 0)
    from orders o
    where o.cashbox_id = ${exchangeId} and o.currency2_id = ${currencyId} and o.status = any(${OPEN}::text[])
    on conflict (exchange_id, currency_id) do nothing`.execute(tx);
}

/** Adds `delta` to the balance and writes its ledger entry, in one statement; returns the entry. */
export async function moveBalance(
  tx: Tx,
  m: {
    exchangeId: number;
    currencyId: number;
    kind: CashMovementKind;
    delta: string;
    orderId: number | null;
    staffId: number | null;
    reason: string | null;
  },
) {
  const { rows } = await sql<MovementRow>`
    with moved as (
      update cash_positions set balance = balance + ${m.delta}::numeric, updated_at = now()
      where exchange_id = ${m.exchangeId} and currency_id = ${m.currencyId}
      returning balance
    )
    insert into cash_movements (exchange_id, currency_id, kind, amount, balance_after, order_id, staff_user_id, reason)
    select ${m.exchangeId}, ${m.currencyId}, ${m.kind}, ${m.delta}::numeric, moved.balance, ${m.orderId}::int, ${m.staffId}::int, ${m.reason}::text
    from moved
    returning ${MOVEMENT_SELECT}`.execute(tx);
  return rows[0]!;
}

export function setWatermark(tx: Tx, exchangeId: number, currencyId: number, lowWatermark: string) {
  return tx
    .updateTable('cash_positions')
    .set({ low_watermark: lowWatermark, updated_at: sql`now()` })
    .where('exchange_id', '=', exchangeId)
    .where('currency_id', '=', currencyId)
    .executeTakeFirst();
}

export interface OrderPayout {
  id: number;
  cashbox_id: number;
  currency1_id: number;
  currency2_id: number;
  client_amount: string;
  exchange_amount: string;
}

/** A cancelled open order's hold given back; nothing when its payout currency is not tracked. */
export async function releaseHold(tx: Tx, o: OrderPayout): Promise<void> {
  await sql`
    update cash_positions set held = held - ${o.exchange_amount}::numeric, updated_at = now()
    where exchange_id = ${o.cashbox_id} and currency_id = ${o.currency2_id}`.execute(tx);
}

/**
 * A paid-out order settled in one statement: the payout leaves the balance and the hold of currency2, the client's
 * payment enters currency1's balance; a ledger entry for each tracked one, none for an untracked one.
 */
export async function settleOrder(tx: Tx, o: OrderPayout): Promise<void> {
  await sql`
    with paid as (
      update cash_positions
      set balance = balance - ${o.exchange_amount}::numeric, held = held - ${o.exchange_amount}::numeric, updated_at = now()
      where exchange_id = ${o.cashbox_id} and currency_id = ${o.currency2_id}
      returning exchange_id, currency_id, balance
    ), received as (
      update cash_positions set balance = balance + ${o.client_amount}::numeric, updated_at = now()
      where exchange_id = ${o.cashbox_id} and currency_id = ${o.currency1_id}
      returning exchange_id, currency_id, balance
    )
    insert into cash_movements (exchange_id, currency_id, kind, amount, balance_after, order_id)
    select exchange_id, currency_id, 'orderSettled', -${o.exchange_amount}::numeric, balance, ${o.id}::int from paid
    union all
    select exchange_id, currency_id, 'orderSettled', ${o.client_amount}::numeric, balance, ${o.id}::int from received`.execute(
    tx,
  );
}

/** What each tracked position of a branch has available, for the catalogue's reserves. */
export function availableInBranch(db: Executor, branchId: number | null) {
  return inScope(
    db.selectFrom('cash_positions as p').innerJoin('exchanges as e', 'e.id', 'p.exchange_id'),
    { branchId, exchangeIds: null },
    { branch: 'e.branch_id' },
  )
    .select(['p.exchange_id', 'p.currency_id', sql<string>`p.balance - p.held`.as('available')])
    .execute();
}

/** What one position has available; undefined when the currency is not tracked there. */
export async function availableOf(db: Executor, exchangeId: number, currencyId: number) {
  const row = await db
    .selectFrom('cash_positions')
    .select(sql<string>`balance - held`.as('available'))
    .where('exchange_id', '=', exchangeId)
    .where('currency_id', '=', currencyId)
    .executeTakeFirst();
  return row?.available;
}

/** Every tracked position's available cash, for the metrics gauge. */
export function allAvailable(db: Executor) {
  return db
    .selectFrom('cash_positions as p')
    .innerJoin('currencies as c', 'c.id', 'p.currency_id')
    .select(['p.exchange_id', 'c.code', sql<string>`p.balance - p.held`.as('available')])
    .execute();
}

const MOVEMENT_SELECT = sql`id, kind, amount, balance_after, order_id, staff_user_id, reason, created_at`;

export interface MovementRow {
  id: string;
  kind: CashMovementKind;
  amount: string;
  balance_after: string;
  order_id: number | null;
  staff_user_id: number | null;
  reason: string | null;
  created_at: Date;
}

export const MOVEMENT_COLUMNS: Record<string, string> = {
  id: 'm.id',
  kind: 'm.kind',
  orderId: 'm.order_id',
  staffId: 'm.staff_user_id',
  createdAt: 'm.created_at',
};

type PositionKey = { exchangeId: number; currencyId: number };

const movementsPage = pageQuery(
  (db: Executor, key: PositionKey) =>
    db
      .selectFrom('cash_movements as m')
      .where('m.exchange_id', '=', key.exchangeId)
      .where('m.currency_id', '=', key.currencyId),
  MOVEMENT_COLUMNS,
  (qb) =>
    qb.select([
      'm.id',
      'm.kind',
      'm.amount',
      'm.balance_after',
      'm.order_id',
      'm.staff_user_id',
      'm.reason',
      'm.created_at',
    ]),
  { nullable: ['orderId', 'staffId'] },
);

/** A position's ledger; the caller has checked the exchange is in scope. */
export function listMovements(db: Executor, exchangeId: number, currencyId: number, params: ListParams) {
  return movementsPage(db, { exchangeId, currencyId }, params);
}
