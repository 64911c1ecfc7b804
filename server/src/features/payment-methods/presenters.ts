import type * as repo from './repository.js';

export function paymentMethodView(p: repo.PaymentMethodRow) {
  return {
    id: p.id,
    branchId: p.branch_id,
    name: p.name,
    kind: p.kind,
    exchangeId: p.exchange_id,
    currencyId: p.currency_id,
    isActive: p.is_active,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  };
}
