import type { Database, Executor } from '../../db/database.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { fieldNotFound } from '../../http/errors.js';
import { targetBranch } from '../branches/service.js';
import { exchangesOutsideBranch, findCurrencies } from '../catalog/service.js';
import * as repo from './repository.js';
import type { CreatePaymentMethodInput, PaymentMethodKind } from './schemas.js';

export function paymentMethodView(p: repo.PaymentMethodRow) {
  return {
    id: p.id, branchId: p.branch_id, name: p.name, kind: p.kind, exchangeId: p.exchange_id, currencyId: p.currency_id,
    isActive: p.is_active, createdAt: p.created_at, updatedAt: p.updated_at,
  };
}

/** A payment method of the branch, optionally only at one of its exchanges or for one currency. */
export async function createPaymentMethod(db: Database, scope: Scope, input: CreatePaymentMethodInput) {
  const branchId = await targetBranch(db, scope, input.branchId);
  if (input.exchangeId !== undefined && (await exchangesOutsideBranch(db, branchId, [input.exchangeId])).length > 0) throw fieldNotFound('exchangeId');
  if (input.currencyId !== undefined && (await findCurrencies(db, [input.currencyId])).length === 0) throw fieldNotFound('currencyId');
  return paymentMethodView(await repo.insertPaymentMethod(db, {
    branchId, name: input.name.trim(), kind: (input.kind ?? 'cash') as PaymentMethodKind,
    exchangeId: input.exchangeId ?? null, currencyId: input.currencyId ?? null, isActive: input.isActive ?? true,
  }));
}

export async function listPaymentMethods(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listPaymentMethods(db, scope, params), paymentMethodView);
}

/** The payment methods a new order names, as the key's scope reaches them (order creation checks the rest). */
export function findPaymentMethods(db: Executor, scope: Scope, ids: number[]) {
  return repo.findPaymentMethods(db, scope, ids);
}
