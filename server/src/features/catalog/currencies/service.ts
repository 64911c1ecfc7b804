import type { Executor } from '../../../db/database.js';
import { uniqueViolation } from '../../../db/errors.js';
import { type ListParams, mapPage } from '../../../db/list.js';
import { badRequest, notFound } from '../../../http/errors.js';
import * as repo from './repository.js';
import type { CreateCurrencyInput, UpdateCurrencyInput } from './schemas.js';

export function currencyView(c: repo.CurrencyRow) {
  return {
    id: c.id, ticker: c.code, name: c.name, kind: c.kind, decimals: c.decimals,
    image: c.image_id && c.image_path ? { id: c.image_id, path: c.image_path } : null, createdAt: c.created_at, updatedAt: c.updated_at,
  };
}

/** A taken ticker is a 400, found by the constraint itself so that two concurrent writes cannot both pass. */
async function uniqueTicker<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === 'currencies_code_key') throw badRequest('A currency with this ticker already exists', { ticker: 'alreadyExists' });
    throw err;
  }
}

export async function createCurrency(db: Executor, input: CreateCurrencyInput) {
  return currencyView(await uniqueTicker(() => repo.insertCurrency(db, input)));
}

export async function listCurrencies(db: Executor, params: ListParams) {
  return mapPage(await repo.listCurrencies(db, params), currencyView);
}

export async function updateCurrency(db: Executor, id: number, patch: UpdateCurrencyInput) {
  const row = await uniqueTicker(() => repo.updateCurrency(db, id, patch));
  if (!row) throw notFound('currency');
  return currencyView(row);
}
