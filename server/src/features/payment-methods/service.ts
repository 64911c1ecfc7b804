import type { Database, Executor } from '../../db/database.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { uniqueViolation } from '../../db/errors.js';
import { inTransaction, type Audit } from '../audit/service.js';
import { targetBranch } from '../branches/service.js';
import { exchangesOutsideBranch, findCurrencies } from '../catalog/service.js';
import { PaymentMethodError } from './errors.js';
import { paymentMethodView } from './presenters.js';
import * as repo from './repository.js';
import type { CreatePaymentMethodInput, PaymentMethodKind, UpdatePaymentMethodInput } from './schemas.js';

/** A payment method of the branch, optionally only at one of its exchanges or for one currency. */
export async function createPaymentMethod(db: Database, audit: Audit, scope: Scope, input: CreatePaymentMethodInput) {
  const branchId = await targetBranch(db, scope, input.branchId);
  if (input.exchangeId !== undefined && (await exchangesOutsideBranch(db, branchId, [input.exchangeId])).length > 0)
    throw PaymentMethodError.exchangeNotFound();
  if (input.currencyId !== undefined && (await findCurrencies(db, [input.currencyId])).length === 0)
    throw PaymentMethodError.currencyNotFound();
  return uniqueName(() =>
    inTransaction(db, async (tx) => {
      const method = paymentMethodView(
        await repo.insertPaymentMethod(tx, {
          branchId,
          name: input.name.trim(),
          kind: (input.kind ?? 'cash') as PaymentMethodKind,
          exchangeId: input.exchangeId ?? null,
          currencyId: input.currencyId ?? null,
          isActive: input.isActive ?? true,
        }),
      );
      await audit.record(tx, {
        action: 'paymentMethod.create',
        entityType: 'paymentMethod',
        entityId: method.id,
        branchId,
        after: method,
      });
      return method;
    }),
  );
}

export async function updatePaymentMethod(
  db: Database,
  audit: Audit,
  scope: Scope,
  id: number,
  input: UpdatePaymentMethodInput,
) {
  return uniqueName(() =>
    inTransaction(db, async (tx) => {
      const before = await repo.lockPaymentMethod(tx, scope, id);
      if (!before) throw PaymentMethodError.notFound();
      const method = paymentMethodView(
        (await repo.updatePaymentMethod(tx, scope, id, { ...input, name: input.name?.trim() }))!,
      );
      await audit.record(tx, {
        action: 'paymentMethod.update',
        entityType: 'paymentMethod',
        entityId: id,
        branchId: method.branchId,
        before: paymentMethodView(before),
        after: method,
      });
      return method;
    }),
  );
}

/** A name taken at the same reach is a 400, found by the index itself (migration 012), so two writes cannot both pass. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === 'payment_methods_name_key') {
      throw PaymentMethodError.nameTaken();
    }
    throw err;
  }
}

export async function listPaymentMethods(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listPaymentMethods(db, scope, params), paymentMethodView);
}

/** The methods the key's orders may name: the partner's list (GET /partner/payment-methods). */
export async function listUsablePaymentMethods(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listUsablePaymentMethods(db, scope, params), paymentMethodView);
}

/** The payment methods a new order names, as the key's scope reaches them (order creation checks the rest). */
export function findPaymentMethods(db: Executor, scope: Scope, ids: number[]) {
  return repo.findPaymentMethods(db, scope, ids);
}
