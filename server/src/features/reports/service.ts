import type { Executor, Tx } from '../../db/database.js';
import type { OrderStatus } from '../../db/schema.js';
import type { Scope } from '../../db/scope.js';
import { ReportError } from './errors.js';
import { dayPieces, daysOf, isTimeZone, reportPieces } from './periods.js';
import * as present from './presenters.js';
import * as repo from './repository.js';
import { MAX_DAYS, type TurnoverQuery } from './schemas.js';

/** Who moved an order, as the orders feature records it: only a staff user signed in counts as its settler. */
export type Mover = { type: 'staff'; staffUserId: number } | { type: 'api_key' | 'system' };

// The order hook: every status change goes through orders' moveOrder, which calls this in its transaction.

/**
 * Keeps the turnover aggregates with the order's status: a move to SUCCESS adds the order at this moment, a move
 * out of SUCCESS (none is allowed today; the aggregates stay right if one ever is) takes it back out.
 */
export async function orderSettled(
  tx: Tx,
  order: { id: number },
  from: OrderStatus,
  to: OrderStatus,
  by: Mover,
): Promise<void> {
  if (to === 'SUCCESS' && from !== 'SUCCESS')
    await repo.addSettled(tx, order.id, by.type === 'staff' ? by.staffUserId : null);
  else if (from === 'SUCCESS' && to !== 'SUCCESS') await repo.removeSettled(tx, order.id);
}

function checkDate(field: 'from' | 'to', value: string): void {
  const ms = Date.parse(`${value}T00:00:00Z`);
  // Date.parse takes 2024-02-30 as 1 March: a date is real when it prints back as itself.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw ReportError.notADate(field);
}

/** The days of a report, checked: real dates in order, a year at most, a zone whose days start on quarters. */
function daysOfQuery(q: Pick<TurnoverQuery, 'from' | 'to' | 'tz'>) {
  checkDate('from', q.from);
  checkDate('to', q.to);
  if (q.to < q.from) throw ReportError.toBeforeFrom();
  if ((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1 > MAX_DAYS) throw ReportError.rangeTooLong(MAX_DAYS);
  const tz = q.tz ?? 'UTC';
  if (!isTimeZone(tz)) throw ReportError.unknownTimeZone(tz);
  const days = daysOf(tz, q.from, q.to);
  if ('offQuarter' in days) throw ReportError.offQuarter(tz, days.offQuarter);
  return { tz, days };
}

/** The turnover report (docs/reports.md): sums of the aggregate buckets of its days, within the caller's scope. */
export async function turnoverReport(db: Executor, scope: Scope, q: TurnoverQuery) {
  const { tz, days } = daysOfQuery(q);
  const rows = await repo.sumBuckets(db, scope, reportPieces(days, q.groupBy === 'day'), q.groupBy, q.exchangeId);
  return { from: q.from, to: q.to, tz, groupBy: q.groupBy, data: rows.map((r) => present.row(r, q.groupBy)) };
}

/** The home page's turnover: the 24 hours from `since` (the viewer's midnight), per currency. */
export async function turnoverToday(db: Executor, scope: Scope, since: Date) {
  const rows = await repo.sumBuckets(db, scope, dayPieces(since), 'currency', undefined);
  return rows.map((r) => present.today(r));
}
