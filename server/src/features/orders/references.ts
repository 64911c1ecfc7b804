import type { Scope } from '../../db/scope.js';
import type { Executor } from '../../db/database.js';
import { findCashbox, findCurrencies } from '../catalog/service.js';
import { findClientRef } from '../clients/service.js';
import { findPaymentMethods } from '../payment-methods/service.js';
import { OrderError, type ReferenceProblem } from './errors.js';
import type { CreateOrderBody } from './schemas.js';

export interface OrderCurrency {
  id: number;
  code: string;
  decimals: number;
}
export interface References {
  cashbox: { id: number; branchId: number; sandbox: boolean; paymentWindowSeconds: number };
  currency1: OrderCurrency;
  currency2: OrderCurrency;
}

type PaymentMethod = Awaited<ReturnType<typeof findPaymentMethods>>[number];

/**
 * Checks every reference of a new order within the key's scope and reports all problems at once:
 * `{<field>: "notFound"}` for a missing or out-of-scope one (a client or payment method must also belong to
 * the cashbox's branch, and a payment method tied to an exchange to the cashbox itself), "inactive" for a
 * disabled cashbox, currency or payment method, "currencyMismatch" for a payment method of another currency.
 */
export async function resolveReferences(db: Executor, scope: Scope, body: CreateOrderBody): Promise<References> {
  const problems: ReferenceProblem[] = [];
  const problem = (field: string, code: ReferenceProblem['code']) => {
    problems.push({ field, code });
  };
  const methodIds = [body.paymentMethodSource?.id, body.paymentMethodDest?.id].filter(
    (id): id is number => id !== undefined,
  );

  // Independent lookups: on PostgreSQL each takes its own pooled connection, so they cost one round trip of time.
  const [cashbox, currencies, user, methods] = await Promise.all([
    findCashbox(db, scope, body.cashbox.id),
    findCurrencies(db, [body.currency1.id, body.currency2.id]),
    body.user ? findClientRef(db, scope, body.user.id) : undefined,
    methodIds.length > 0 ? findPaymentMethods(db, scope, methodIds) : [],
  ]);

  if (!cashbox) problem('cashbox', 'notFound');
  else if (!cashbox.is_active) problem('cashbox', 'inactive');
  const currency = (field: 'currency1' | 'currency2') => {
    const c = currencies.find((row) => row.id === body[field].id);
    if (!c) problem(field, 'notFound');
    else if (!c.is_active) problem(field, 'inactive');
    return c;
  };
  const currency1 = currency('currency1');
  const currency2 = currency('currency2');
  if (body.user && (!user || (cashbox && user.branch_id !== cashbox.branch_id))) problem('user', 'notFound');

  const method = (field: 'paymentMethodSource' | 'paymentMethodDest', currencyId: number) => {
    const ref = body[field];
    if (!ref) return;
    const m = methods.find((row) => row.id === ref.id);
    if (!m || (cashbox && !usableAt(m, cashbox))) problem(field, 'notFound');
    else if (!m.is_active) problem(field, 'inactive');
    else if (m.currency_id !== null && m.currency_id !== currencyId) problem(field, 'currencyMismatch');
  };
  method('paymentMethodSource', body.currency1.id);
  method('paymentMethodDest', body.currency2.id);

  if (problems.length > 0 || !cashbox || !currency1 || !currency2) throw OrderError.unusableReferences(problems);
  return {
    cashbox: {
      id: cashbox.id,
      branchId: cashbox.branch_id,
      sandbox: cashbox.is_sandbox,
      paymentWindowSeconds: cashbox.payment_window_seconds,
    },
    currency1,
    currency2,
  };
}

function usableAt(m: PaymentMethod, cashbox: { id: number; branch_id: number }): boolean {
  return m.branch_id === cashbox.branch_id && (m.exchange_id === null || m.exchange_id === cashbox.id);
}
