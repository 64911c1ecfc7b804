import { randomBytes } from 'node:crypto';
import type { KeyPrincipal, Principal } from '../../auth/principal.js';
import type { Scope } from '../../db/scope.js';
import type { Database, Executor, Tx } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import type { OrderStatus } from '../../db/schema.js';
import type { Audit } from '../audit/service.js';
import { findOfferForPricing } from '../catalog/service.js';
import { normalize } from '../pricing/decimal.js';
import { enqueue } from '../delivery/outbox.js';
import { isSandbox } from '../branches/service.js';
import { orderMoved, reserveRefusal } from '../cash/service.js';
import { linkOrder, useQuote } from '../quotes/service.js';
import { orderSettled } from '../reports/service.js';
import { OrderError } from './errors.js';
import { checkAmountsGiven, priceOrder, type PricedOrder } from './pricing.js';
import { resolveReferences, type References } from './references.js';
import * as repo from './repository.js';
import { insertHistory, type HistoryRow } from './repository.js';
import type { CreateOrderBody } from './schemas.js';
import type { ReceiptData } from './receipt.js';
import { transition, type Mover } from './transitions.js';

export type { ChangeRow } from './repository.js';
export { ORDER_STATUSES, STAFF_MOVES } from './transitions.js';

// The reads of routes, the back office's home page and the order feed. Scope lives in each query.

export const findOrder = (db: Executor, scope: Scope, id: number) => repo.findOrder(db, scope, id);
export const listOrders = (db: Executor, scope: Scope, params: ListParams) => repo.listOrders(db, scope, params);
export const listHistory = (db: Executor, scope: Scope, orderId: number) => repo.listHistory(db, scope, orderId);
export const clientsByIds = (db: Executor, ids: readonly number[]) => repo.clientsByIds(db, ids);
export const searchOrders = (db: Executor, scope: Scope, text: string, limit: number, byClient: boolean) =>
  repo.searchOrders(db, scope, text, limit, byClient);
export const findOrderClient = (db: Executor, scope: Scope, orderId: number) =>
  repo.findOrderClient(db, scope, orderId);
export const findOrderOffice = (db: Executor, scope: Scope, orderId: number) =>
  repo.findOrderOffice(db, scope, orderId);
export const countByStatusSince = (db: Executor, scope: Scope, since: Date) =>
  repo.countByStatusSince(db, scope, since);
export const waitingLongest = (db: Executor, scope: Scope, limit: number) => repo.waitingLongest(db, scope, limit);
export const lastChangeId = (db: Executor) => repo.lastChangeId(db);
export const changesAfter = (db: Executor, afterId: number, seen: readonly number[], limit: number) =>
  repo.changesAfter(db, afterId, seen, limit);

export type Actor = HistoryRow['actor'];

const SYSTEM: Actor = { type: 'system' };

export function keyActor(key: KeyPrincipal): Actor {
  return { type: 'api_key', apiKeyId: key.keyId, staffUserId: key.staffUserId };
}

/**
 * Who places an order: a partner's key (`source: partner`), or a cashier at the counter serving a walk-in client
 * (`source: counter`, the staff user recorded as its creator). Both are priced, checked and announced alike; only
 * the origin differs.
 */
function originOf(by: Principal) {
  return by.kind === 'apiKey'
    ? { source: 'partner' as const, keyId: by.keyId, staff: null, actor: keyActor(by) }
    : {
        source: 'counter' as const,
        keyId: null,
        staff: { id: by.staffUserId, email: by.email },
        actor: { type: 'staff' as const, staffUserId: by.staffUserId },
      };
}

/** 96 random bits: a public identifier that reveals neither the order count nor the next id. */
export function newHashedId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * Creates an order in ORDERINIT with its first history row and its `order.created` event, in `tx` when the
 * caller has one (an idempotent request, or a staff request writing its audit row). An order on a quote uses the
 * quote in the same transaction (its own when `tx` is absent), so a failed order gives the quote back. `by` is a
 * partner's key or a staff user at the counter: the same pricing, checks and events. Returns the new order.
 */
export async function createOrder(
  db: Database,
  tx: Tx | undefined,
  key: Principal,
  body: CreateOrderBody,
  audit?: Audit,
): Promise<repo.OrderRow> {
  checkAmountsGiven(body);
  if (body.currency1.id === body.currency2.id) throw OrderError.sameCurrency();
  const quoteId = body.quoteId;
  if (quoteId === undefined)
    return insertOrder(tx ?? db, key, body, (refs, pricing) => priceOrder(body, refs, pricing), audit);
  const onQuote = async (t: Tx) => {
    const use = { exchangeId: body.cashbox.id, sourceCurrencyId: body.currency1.id, destCurrencyId: body.currency2.id };
    const order = await insertOrder(t, key, body, (_refs, pricing) => useQuote(t, key, quoteId, use, pricing), audit);
    await linkOrder(t, quoteId, order.id);
    return order;
  };
  return tx ? onQuote(tx) : db.transaction().execute(onQuote);
}

type Pricer = (
  refs: References,
  pricing: Awaited<ReturnType<typeof findOfferForPricing>> | undefined,
) => PricedOrder | Promise<PricedOrder>;

/**
 * Its references, offer and id are read in parallel, then the order is priced and everything is written in one
 * statement: two round trips of time.
 */
async function insertOrder(
  db: Executor,
  key: Principal,
  body: CreateOrderBody,
  priceWith: Pricer,
  audit: Audit | undefined,
): Promise<repo.OrderRow> {
  const [refs, pricing, id] = await Promise.all([
    resolveReferences(db, key, body),
    body.operationType === 'offer'
      ? findOfferForPricing(db, key, body.cashbox.id, body.currency1.id, body.currency2.id)
      : undefined,
    repo.reserveOrderId(db),
  ]);
  const priced = await priceWith(refs, pricing);
  const placedAt = new Date();
  const expiresAt = expiryOf(placedAt, refs.cashbox.paymentWindowSeconds);
  const origin = originOf(key);
  const order = await insertNewOrder(
    refs.currency2.code,
    db,
    {
      id,
      hashed_id: newHashedId(),
      branch_id: refs.cashbox.branchId,
      cashbox_id: refs.cashbox.id,
      currency1_id: refs.currency1.id,
      currency2_id: refs.currency2.id,
      client_amount: priced.clientAmount,
      exchange_amount: priced.exchangeAmount,
      operation_type: body.operationType,
      offer_id: priced.offerId,
      rate: priced.rate,
      is_reverse: priced.isReverse,
      reference_rate: priced.referenceRate,
      user_id: body.user?.id ?? null,
      payment_method_source_id: body.paymentMethodSource?.id ?? null,
      payment_method_dest_id: body.paymentMethodDest?.id ?? null,
      comment: body.comment ?? null,
      client_comment: body.clientComment ?? null,
      user_wallet: body.userWallet ?? null,
      tg_nick_name: body.tgNickName ?? null,
      created_by_key_id: origin.keyId,
      source: origin.source,
      created_by_staff_id: origin.staff?.id ?? null,
      sandbox: refs.cashbox.sandbox,
      expires_at: expiresAt,
    },
    { c1_code: refs.currency1.code, c2_code: refs.currency2.code, created_by_email: origin.staff?.email ?? null },
    { orderId: id, from: null, to: 'ORDERINIT', actor: origin.actor },
    {
      event: 'order.created',
      branchId: refs.cashbox.branchId,
      exchangeId: refs.cashbox.id,
      data: sandboxMarked(
        {
          id,
          status: 'ORDERINIT',
          amountSource: normalize(priced.clientAmount),
          amountDest: normalize(priced.exchangeAmount),
          expiresAt: expiresAt?.toISOString() ?? null,
        },
        refs.cashbox.sandbox,
      ),
      occurredAt: placedAt,
    },
  );
  // Partners' orders are in their history only; the audit log holds what staff do, a counter order among it.
  await audit?.record(db, {
    action: 'order.create',
    entityType: 'order',
    entityId: order.id,
    branchId: order.branch_id,
    after: {
      source: order.source,
      cashboxId: order.cashbox_id,
      clientAmount: order.client_amount,
      exchangeAmount: order.exchange_amount,
      rate: order.rate,
    },
  });
  return order;
}

/** Writes the order; a hold its payout currency's cash cannot cover (docs/cash.md) is refused. */
async function insertNewOrder(
  currency2: string,
  db: Executor,
  order: repo.CreatedOrder,
  codes: { c1_code: string; c2_code: string; created_by_email: string | null },
  history: HistoryRow,
  event: Parameters<typeof repo.insertNewOrder>[4],
): Promise<repo.OrderRow> {
  try {
    return await repo.insertNewOrder(db, order, codes, history, event);
  } catch (err) {
    throw reserveRefusal(err, currency2) ?? err;
  }
}

/**
 * When an order placed at `placedAt` runs out of its payment window: the one moment the order's `expiresAt` and its
 * `order.created` event both show. Null for a window of 0 (the exchange's orders never expire).
 */
function expiryOf(placedAt: Date, windowSeconds: number): Date | null {
  return windowSeconds > 0 ? new Date(placedAt.getTime() + windowSeconds * 1000) : null;
}

/**
 * An event's data with `sandbox: true` for a sandbox order. Real orders' payloads stay exactly as the contract
 * shows them, so the mark is added only where it is true.
 */
function sandboxMarked(data: Record<string, unknown>, sandbox: boolean): Record<string, unknown> {
  if (sandbox) data.sandbox = true;
  return data;
}

export interface Move {
  id: number;
  to: OrderStatus;
  by: Mover;
  actor: Actor;
  comment?: string;
  /** Why the system moved the order: carried in the `order.cancelled` event's data. */
  reason?: 'expired';
  /** A sandbox move: only a sandbox order this key placed, in a branch that is still a sandbox; any other is 404. */
  sandboxKeyId?: string;
}

/**
 * Moves an order under a row lock: concurrent moves of one order wait for each other and each judges the
 * status the previous one left, so only one of two conflicting moves can win. The history row and the
 * events commit with the move.
 */
export async function moveOrder(tx: Tx, scope: Scope, move: Move, audit?: Audit): Promise<void> {
  const order = await repo.lockOrder(tx, scope, move.id);
  if (!order || (move.sandboxKeyId !== undefined && !(await sandboxOwned(tx, order, move.sandboxKeyId))))
    throw OrderError.notFound();
  const outcome = transition(order.status, move.to, move.by);
  if (!outcome.ok) throw OrderError.moveRefused(outcome.message);
  // The cash first: a new order's statement locks its position before the counters it updates when it ends, so a
  // move locks them in that order too. A move out of the open statuses releases or settles the order's hold.
  await orderMoved(tx, order, order.status, move.to);
  await orderSettled(tx, order, order.status, move.to, move.actor);
  // The events first: their deliveries' counters are locked before the orders' counters, in the order the one
  // statement creating an order locks them. The other way round, a move and a creation at one exchange with a
  // webhook deadlocked (PostgreSQL 40P01, a 500 for one of the two).
  const occurredAt = new Date();
  await enqueue(
    tx,
    outcome.events.map((event) => ({
      event,
      branchId: order.branch_id,
      exchangeId: order.cashbox_id,
      data: sandboxMarked(
        event === 'order.cancelled' && move.reason
          ? { id: order.id, status: move.to, reason: move.reason }
          : { id: order.id, status: move.to },
        order.sandbox,
      ),
      envelope: event === 'order.status_changed' ? { status: move.to } : undefined,
      occurredAt,
    })),
  );
  if (!(await repo.updateStatus(tx, scope, order.id, order.status, move.to)))
    throw OrderError.changedConcurrently(order.id);
  await insertHistory(tx, {
    orderId: order.id,
    from: order.status,
    to: move.to,
    actor: move.actor,
    comment: move.comment,
  });
  // Partners' moves (a cancel) are in the order's history only; the audit log holds the staff's and the CLI's.
  await audit?.record(tx, {
    action: 'order.move',
    entityType: 'order',
    entityId: order.id,
    branchId: order.branch_id,
    before: { status: order.status },
    after: { status: move.to, comment: move.comment ?? null },
  });
}

async function sandboxOwned(
  tx: Tx,
  order: { sandbox: boolean; created_by_key_id: string | null; branch_id: number },
  keyId: string,
) {
  return order.sandbox && order.created_by_key_id === keyId && isSandbox(tx, order.branch_id);
}

/** A cancel of an expired order that failed: the order is named, so the job can pass over it for a while. */
export class ExpiryFailed extends Error {
  constructor(
    readonly orderId: number,
    cause: unknown,
  ) {
    super(`order ${orderId} could not be cancelled as expired`, { cause });
  }
}

/**
 * Cancels the order whose payment window ran out first, if any, as the system: through moveOrder like every other
 * move, so its history row, its events and whatever else a cancel undoes come with it. The row stays locked until
 * the cancel commits and other workers skip it, so each expiry happens once however many workers run. Orders in
 * `passOver` are left for later. Returns whether an order expired.
 */
export async function expireNextDue(db: Database, passOver: readonly number[] = []): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const due = await repo.lockDueOrder(tx, passOver);
    if (!due) return false;
    try {
      await moveOrder(
        tx,
        { branchId: due.branch_id, exchangeIds: null },
        { id: due.id, to: 'CANCEL', by: 'system', actor: SYSTEM, comment: 'expired', reason: 'expired' },
      );
    } catch (err) {
      throw new ExpiryFailed(due.id, err);
    }
    return true;
  });
}

export const msToNextExpiry = (db: Executor, passOver: readonly number[] = []) => repo.msToNextExpiry(db, passOver);

/**
 * What an order's receipt shows, or undefined out of scope. The cashier is the counter order's creator; for a
 * partner's order, the staff user who last moved it (the one who handed the cash over), or none. The client's name
 * only for a caller who may read clients (`withClient`).
 */
export async function receiptOf(
  db: Executor,
  scope: Scope,
  id: number,
  withClient: boolean,
): Promise<ReceiptData | undefined> {
  const [order, office, history, client] = await Promise.all([
    repo.findOrder(db, scope, id),
    repo.findOrderOffice(db, scope, id),
    repo.listHistory(db, scope, id),
    withClient ? repo.findOrderClient(db, scope, id) : undefined,
  ]);
  if (!order || !office) return undefined;
  const { c1_decimals, c2_decimals, ...place } = office;
  const mover = history.filter((h) => h.actor_type === 'staff' && h.staff_email !== null).at(-1)?.staff_email ?? null;
  return {
    office: place,
    order: {
      id: order.id,
      hashedId: order.hashed_id,
      status: order.status,
      clientAmount: order.client_amount,
      exchangeAmount: order.exchange_amount,
      currency1: order.c1_code,
      currency2: order.c2_code,
      decimals1: c1_decimals,
      decimals2: c2_decimals,
      rate: order.rate,
      isReverse: order.is_reverse === true,
      createdAt: order.created_at,
    },
    cashier: order.source === 'counter' ? order.created_by_email : mover,
    client: client ? `${client.first_name} ${client.last_name}` : null,
  };
}
