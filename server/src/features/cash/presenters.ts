import { Dec, normalize } from '../pricing/decimal.js';
import type { MovementRow, PositionRow } from './repository.js';

export function position(p: PositionRow) {
  return {
    currency: { id: p.currency_id, ticker: p.code },
    balance: normalize(p.balance),
    held: normalize(p.held),
    available: new Dec(p.balance).minus(p.held).toFixed(),
    lowWatermark: normalize(p.low_watermark),
    updatedAt: p.updated_at,
  };
}

export function movement(m: MovementRow) {
  return {
    id: Number(m.id),
    kind: m.kind,
    amount: normalize(m.amount),
    balanceAfter: normalize(m.balance_after),
    orderId: m.order_id,
    staffId: m.staff_user_id,
    reason: m.reason,
    createdAt: m.created_at,
  };
}
