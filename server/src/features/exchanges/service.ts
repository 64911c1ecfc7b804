import type { Database, Executor } from '../../db/database.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { ExchangeError } from './errors.js';
import type { Audit } from '../audit/service.js';
import { targetBranch } from '../branches/service.js';
import { catalogChanged } from '../catalog/snapshot-local.js';
import { exchangeView } from './presenters.js';
import * as repo from './repository.js';
import type { CreateExchangeInput, ScheduleDayInputDto, UpdateExchangeInput } from './schemas.js';

// Reads of the partner catalogue, of the offers' and the staff's rules.
export type { ScheduleRow } from './repository.js';
export const listPublicExchanges: typeof repo.listPublicExchanges = (...args) => repo.listPublicExchanges(...args);
export const findPublicExchange: typeof repo.findPublicExchange = (...args) => repo.findPublicExchange(...args);
export const findCashbox: typeof repo.findCashbox = (...args) => repo.findCashbox(...args);
export const exchangesOutsideBranch: typeof repo.exchangesOutsideBranch = (...args) =>
  repo.exchangesOutsideBranch(...args);
export const exchangeInScope: typeof repo.exchangeInScope = (...args) => repo.exchangeInScope(...args);

export async function listExchanges(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listExchanges(db, scope, params), exchangeView);
}

export async function getExchange(db: Executor, scope: Scope, id: number) {
  const row = await repo.findExchange(db, scope, id);
  if (!row) throw ExchangeError.exchangeNotFound();
  return exchangeView(row);
}

export async function createExchange(db: Database, audit: Audit, scope: Scope, input: CreateExchangeInput) {
  const branchId = await targetBranch(db, scope, input.branchId);
  const values = toValues(input);
  const days = input.schedule && toSchedule(input.schedule);
  return committed(
    db,
    db.transaction().execute(async (tx) => {
      const id = await repo.insertExchange(tx, branchId, { ...values, name: input.name.trim() });
      if (days) await repo.replaceSchedule(tx, id, days);
      const exchange = exchangeView((await repo.findExchange(tx, scope, id))!);
      await audit.record(tx, {
        action: 'exchange.create',
        entityType: 'exchange',
        entityId: id,
        branchId,
        after: exchange,
      });
      return exchange;
    }),
  );
}

export async function updateExchange(db: Database, audit: Audit, scope: Scope, id: number, patch: UpdateExchangeInput) {
  const values = toValues(patch);
  const days = patch.schedule && toSchedule(patch.schedule);
  return committed(
    db,
    db.transaction().execute(async (tx) => {
      if (!(await repo.exchangeInScope(tx, scope, id, true))) throw ExchangeError.exchangeNotFound();
      const before = exchangeView((await repo.findExchange(tx, scope, id))!);
      await repo.updateExchange(tx, id, { ...values, name: patch.name?.trim() });
      if (days) await repo.replaceSchedule(tx, id, days);
      const after = exchangeView((await repo.findExchange(tx, scope, id))!);
      // Named for what changed, not for what was sent: the console sends the week with every save.
      const scheduleMoved = JSON.stringify(before.schedule) !== JSON.stringify(after.schedule);
      await audit.record(tx, {
        action: scheduleMoved ? 'exchange.update.schedule' : 'exchange.update',
        entityType: 'exchange',
        entityId: id,
        branchId: after.branchId,
        before,
        after,
      });
      return after;
    }),
  );
}

/** This process's snapshots drop the change as soon as it commits (the NOTIFY reaches the others). */
async function committed<T>(db: Database, write: Promise<T>): Promise<T> {
  const result = await write;
  catalogChanged(db);
  return result;
}

function toValues(input: UpdateExchangeInput): repo.ExchangeValues {
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) {
    throw ExchangeError.unknownTimeZone(input.timezone);
  }
  return {
    address: input.address,
    city: input.city,
    phoneNumber: input.contacts?.phoneNumber,
    chatUrl: input.contacts?.chat,
    location: input.location,
    timezone: input.timezone,
    isActive: input.isActive,
    paymentWindowSeconds: input.paymentWindowSeconds,
  };
}

/** An open day needs both times, closing after it opens; a closed day keeps none. Each day appears at most once. */
function toSchedule(days: ScheduleDayInputDto[]): repo.ScheduleDay[] {
  const seen = new Set<number>();
  return days.map((d, i) => {
    if (seen.has(d.dayOfWeek)) throw ExchangeError.scheduleDayTwice(i, d.dayOfWeek);
    seen.add(d.dayOfWeek);
    if (d.isClosed) return { dayOfWeek: d.dayOfWeek, openTime: null, closeTime: null, isClosed: true };
    if (!d.openTime || !d.closeTime) {
      const field = d.openTime ? 'closeTime' : 'openTime';
      throw ExchangeError.scheduleTimeMissing(i, field);
    }
    // HH:MM strings compare as times. 00:00 closes at midnight, so a day can run to its end (or round the clock).
    if (d.closeTime !== '00:00' && d.closeTime <= d.openTime) {
      throw ExchangeError.scheduleClosesBeforeOpening(i, d.openTime);
    }
    return { dayOfWeek: d.dayOfWeek, openTime: d.openTime, closeTime: d.closeTime, isClosed: false };
  });
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
