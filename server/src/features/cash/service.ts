import type { Database, Executor, Tx } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import type { OrderStatus } from '../../db/schema.js';
import type { Scope } from '../../db/scope.js';
import { INSUFFICIENT_RESERVE } from '../../db/migrations/017_cash_positions.js';
import { inTransaction, type Audit } from '../audit/service.js';
import { catalogChanged } from '../catalog/snapshot-local.js';
import { Dec, normalize } from '../pricing/decimal.js';
import { CashError } from './errors.js';
import * as present from './presenters.js';
import * as repo from './repository.js';
import type { CreateMovementBody, TransferBody } from './schemas.js';

export type { OrderPayout } from './repository.js';
/** A position's key in a map of available cash. */
export const positionKey = (exchangeId: number, currencyId: number) => `${exchangeId}:${currencyId}`;

/** What each tracked position of a branch (null: every branch) has available, by positionKey. */
export async function availableInBranch(db: Executor, branchId: number | null): Promise<Map<string, string>> {
  const rows = await repo.availableInBranch(db, branchId);
  return new Map(rows.map((r) => [positionKey(r.exchange_id, r.currency_id), r.available]));
}
export const availableOf = (db: Executor, exchangeId: number, currencyId: number) =>
  repo.availableOf(db, exchangeId, currencyId);
export const allAvailable = (db: Executor) => repo.allAvailable(db);

const OPEN: readonly OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'];

// Order hooks: every status change goes through orders' moveOrder, which calls this in its transaction.

/** Releases or settles the order's hold as its move leaves the open statuses; nothing for any other move. */
export async function orderMoved(tx: Tx, order: repo.OrderPayout, from: OrderStatus, to: OrderStatus): Promise<void> {
  if (!OPEN.includes(from) || OPEN.includes(to)) return;
  if (to === 'SUCCESS') await repo.settleOrder(tx, order);
  else await repo.releaseHold(tx, order);
}

/**
 * The refusal of an order whose hold the database refused (migration 017), or undefined for any other error: the
 * detail of the error is what the position had available.
 */
export function reserveRefusal(err: unknown, currency: string) {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, detail } = err as { code?: unknown; detail?: unknown };
  if (code !== INSUFFICIENT_RESERVE) return undefined;
  return CashError.insufficientReserve(
    'exchangeAmount',
    normalize(typeof detail === 'string' ? detail : '0'),
    currency,
  );
}

/**
 * The estimate's and the quote's check: refuses a payout above what is available, when the currency is tracked.
 * `available` is undefined for an untracked one.
 */
export function checkReserve(available: string | undefined, payout: string, currency: string): void {
  if (available !== undefined && new Dec(payout).greaterThan(available))
    throw CashError.insufficientReserve('amount', normalize(available), currency);
}

// The back office.

async function reach(db: Executor, scope: Scope, exchangeId: number, currencyId: number) {
  const [exchange, currency] = await Promise.all([
    repo.exchangeInScope(db, scope, exchangeId),
    repo.findCurrency(db, currencyId),
  ]);
  if (!exchange) throw CashError.exchangeNotFound();
  if (!currency) throw CashError.currencyNotFound();
  return { exchange, currency };
}

export async function listPositions(db: Executor, scope: Scope, exchangeId: number) {
  if (!(await repo.exchangeInScope(db, scope, exchangeId))) throw CashError.exchangeNotFound();
  return (await repo.listPositions(db, exchangeId)).map(present.position);
}

export async function listMovements(
  db: Executor,
  scope: Scope,
  exchangeId: number,
  currencyId: number,
  params: ListParams,
) {
  await reach(db, scope, exchangeId, currencyId);
  const page = await repo.listMovements(db, exchangeId, currencyId, params);
  return { ...page, rows: page.rows.map(present.movement) };
}

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/** An amount of the request as an exact decimal string: positive (or zero where allowed), in the currency's precision. */
function amountOf(
  field: string,
  value: number | string,
  currency: { code: string; decimals: number },
  allowZero = false,
): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? new Dec(value).toFixed() : String(value);
  if (!DECIMAL.test(text)) throw CashError.notADecimal(field);
  const amount = new Dec(text);
  if (amount.isZero() && !allowZero) throw CashError.notPositive(field);
  if (amount.decimalPlaces() > currency.decimals)
    throw CashError.tooManyDecimals(field, currency.decimals, currency.code);
  return amount.toFixed();
}

/**
 * A deposit, withdrawal or count at one exchange, with its ledger entry and audit row, in one transaction. The
 * first movement of a currency starts tracking it. A withdrawal or count may not leave less than the open orders
 * hold: those orders were promised that cash.
 */
export async function recordMovement(
  db: Database,
  audit: Audit,
  scope: Scope,
  exchangeId: number,
  currencyId: number,
  body: CreateMovementBody,
) {
  const result = await inTransaction(db, async (tx) => {
    const { exchange, currency } = await reach(tx, scope, exchangeId, currencyId);
    const amount = amountOf('amount', body.amount, currency, body.kind === 'count');
    await repo.trackPosition(tx, exchangeId, currencyId);
    const before = (await repo.findPosition(tx, exchangeId, currencyId, true))!;
    const delta =
      body.kind === 'deposit'
        ? amount
        : body.kind === 'withdrawal'
          ? new Dec(amount).negated().toFixed()
          : new Dec(amount).minus(before.balance).toFixed();
    if (body.kind !== 'deposit') checkNotBelowHeld(before, delta);
    const movement = await repo.moveBalance(tx, {
      exchangeId,
      currencyId,
      kind: body.kind,
      delta,
      orderId: null,
      staffId: audit.actor.staffUserId,
      reason: body.reason ?? null,
    });
    const after = (await repo.findPosition(tx, exchangeId, currencyId))!;
    await audit.record(tx, {
      action: `cash.${body.kind}`,
      entityType: 'cash',
      entityId: positionKey(exchangeId, currencyId),
      branchId: exchange.branch_id,
      before: { balance: normalize(before.balance), held: normalize(before.held) },
      after: { amount: normalize(movement.amount), balance: normalize(after.balance), reason: body.reason ?? null },
    });
    return {
      branchId: exchange.branch_id,
      body: { movement: present.movement(movement), position: present.position(after) },
    };
  });
  catalogChanged(db, result.branchId);
  return result.body;
}

function checkNotBelowHeld(p: repo.PositionRow, delta: string) {
  const available = new Dec(p.balance).minus(p.held);
  if (available.plus(delta).isNegative()) throw CashError.belowHeld(normalize(p.held), available.toFixed(), p.code);
}

/**
 * Cash carried from one exchange to another of the same branch: two ledger entries and an audit row in one
 * transaction. The two positions are locked in exchange id order, so two transfers the other way round wait for
 * each other instead of deadlocking.
 */
export async function transfer(db: Database, audit: Audit, scope: Scope, body: TransferBody) {
  if (body.fromExchangeId === body.toExchangeId) throw CashError.transferSameExchange();
  const result = await inTransaction(db, async (tx) => {
    const [from, to, currency] = await Promise.all([
      repo.exchangeInScope(tx, scope, body.fromExchangeId),
      repo.exchangeInScope(tx, scope, body.toExchangeId),
      repo.findCurrency(tx, body.currencyId),
    ]);
    if (!from) throw CashError.transferExchangeNotFound('fromExchangeId');
    if (!to) throw CashError.transferExchangeNotFound('toExchangeId');
    if (from.branch_id !== to.branch_id) throw CashError.transferAcrossBranches();
    if (!currency) throw CashError.currencyNotFound();
    const amount = amountOf('amount', body.amount, currency);
    const ids = [from.id, to.id].sort((a, b) => a - b);
    // Both tracked before either row is locked: starting to track may wait for orders being written, and one of them
    // may be waiting for a position row this transaction would otherwise already hold.
    for (const id of ids) await repo.trackPosition(tx, id, currency.id);
    const locked = new Map<number, repo.PositionRow>();
    for (const id of ids) locked.set(id, (await repo.findPosition(tx, id, currency.id, true))!);
    const source = locked.get(from.id)!;
    const negated = new Dec(amount).negated().toFixed();
    checkNotBelowHeld(source, negated);
    const reason = body.reason ?? null;
    const staffId = audit.actor.staffUserId;
    const out = await repo.moveBalance(tx, {
      exchangeId: from.id,
      currencyId: currency.id,
      kind: 'transferOut',
      delta: negated,
      orderId: null,
      staffId,
      reason,
    });
    const into = await repo.moveBalance(tx, {
      exchangeId: to.id,
      currencyId: currency.id,
      kind: 'transferIn',
      delta: amount,
      orderId: null,
      staffId,
      reason,
    });
    const [fromAfter, toAfter] = await Promise.all([
      repo.findPosition(tx, from.id, currency.id),
      repo.findPosition(tx, to.id, currency.id),
    ]);
    // One row for the one act, on the sending position, naming both sides.
    await audit.record(tx, {
      action: 'cash.transfer',
      entityType: 'cash',
      entityId: positionKey(from.id, currency.id),
      branchId: from.branch_id,
      before: { fromBalance: normalize(source.balance) },
      after: {
        amount: normalize(amount),
        toExchangeId: to.id,
        fromBalance: normalize(fromAfter!.balance),
        toBalance: normalize(toAfter!.balance),
        reason,
      },
    });
    return {
      branchId: from.branch_id,
      body: {
        from: { movement: present.movement(out), position: present.position(fromAfter!) },
        to: { movement: present.movement(into), position: present.position(toAfter!) },
      },
    };
  });
  catalogChanged(db, result.branchId);
  return result.body;
}

/** The level below which the console shows a position as low; a currency not tracked yet is 404. */
export async function setLowWatermark(
  db: Database,
  audit: Audit,
  scope: Scope,
  exchangeId: number,
  currencyId: number,
  value: number | string,
) {
  return inTransaction(db, async (tx) => {
    const { exchange, currency } = await reach(tx, scope, exchangeId, currencyId);
    const lowWatermark = amountOf('lowWatermark', value, currency, true);
    const before = await repo.findPosition(tx, exchangeId, currencyId, true);
    if (!before) throw CashError.positionNotFound();
    await repo.setWatermark(tx, exchangeId, currencyId, lowWatermark);
    await audit.record(tx, {
      action: 'cash.watermark',
      entityType: 'cash',
      entityId: positionKey(exchangeId, currencyId),
      branchId: exchange.branch_id,
      before: { lowWatermark: normalize(before.low_watermark) },
      after: { lowWatermark },
    });
    return present.position((await repo.findPosition(tx, exchangeId, currencyId))!);
  });
}
