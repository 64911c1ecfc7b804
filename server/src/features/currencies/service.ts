import type { Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { type ListParams, mapPage } from '../../db/list.js';
import { CurrencyError } from './errors.js';
import { inTransaction, type Audit } from '../audit/service.js';
import { catalogChanged } from '../catalog/snapshot-local.js';
import { currencyView } from './presenters.js';
import * as repo from './repository.js';
import type { CreateCurrencyInput, UpdateCurrencyInput } from './schemas.js';

// Reads of the partner catalogue and of the offers' rules.
export const findCurrencies: typeof repo.findCurrencies = (...args) => repo.findCurrencies(...args);
export const listOfferedCurrencies: typeof repo.listOfferedCurrencies = (...args) =>
  repo.listOfferedCurrencies(...args);

/** A taken ticker is a 400, found by the constraint itself so that two concurrent writes cannot both pass. */
async function uniqueTicker<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === 'currencies_code_key') throw CurrencyError.tickerTaken();
    throw err;
  }
}

export async function createCurrency(db: Executor, audit: Audit, input: CreateCurrencyInput) {
  return changed(
    db,
    uniqueTicker(() =>
      inTransaction(db, async (tx) => {
        const currency = currencyView(await repo.insertCurrency(tx, input));
        await audit.record(tx, {
          action: 'currency.create',
          entityType: 'currency',
          entityId: currency.id,
          branchId: null,
          after: currency,
        });
        return currency;
      }),
    ),
  );
}

export async function listCurrencies(db: Executor, params: ListParams) {
  return mapPage(await repo.listCurrencies(db, params), currencyView);
}

export async function updateCurrency(db: Executor, audit: Audit, id: number, patch: UpdateCurrencyInput) {
  return changed(
    db,
    uniqueTicker(() =>
      inTransaction(db, async (tx) => {
        const before = await repo.findCurrency(tx, id);
        const row = before && (await repo.updateCurrency(tx, id, patch));
        if (!row) throw CurrencyError.currencyNotFound();
        const currency = currencyView(row);
        await audit.record(tx, {
          action: 'currency.update',
          entityType: 'currency',
          entityId: id,
          branchId: null,
          before: currencyView(before),
          after: currency,
        });
        return currency;
      }),
    ),
  );
}

/**
 * Currencies are every branch's: this process's snapshots all drop the change once it has committed (`db` in a
 * caller's transaction is not the database, and its NOTIFY then does the same at commit).
 */
async function changed<T>(db: Executor, write: Promise<T>): Promise<T> {
  const result = await write;
  catalogChanged(db);
  return result;
}
