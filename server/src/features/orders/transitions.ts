import type { OrderStatus, WebhookEvent } from '../../db/schema.js';

export const ORDER_STATUSES: readonly OrderStatus[] = [
  'ORDERINIT',
  'CLIENTPAYMENTWAIT',
  'EXCHANGEPAYMENTWAIT',
  'CASHOUT',
  'SUCCESS',
  'CANCEL',
];

/** The staff moves (docs/decisions.md, "Orders"); every move not listed is refused. SUCCESS and CANCEL are final. */
export const STAFF_MOVES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  ORDERINIT: ['CLIENTPAYMENTWAIT', 'CANCEL'],
  CLIENTPAYMENTWAIT: ['EXCHANGEPAYMENTWAIT', 'CANCEL'],
  EXCHANGEPAYMENTWAIT: ['CASHOUT', 'SUCCESS', 'CANCEL'],
  CASHOUT: ['SUCCESS', 'CANCEL'],
  SUCCESS: [],
  CANCEL: [],
};

/** A partner may only cancel, and only before the client has paid. */
export const PARTNER_CANCELLABLE: readonly OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT'];

/** The system cancels an order whose payment window ran out, and only one still waiting for the payment. */
export const EXPIRABLE: readonly OrderStatus[] = ['ORDERINIT', 'CLIENTPAYMENTWAIT'];

/** A sandbox move is a partner's test of the staff moves, so it follows the staff table. */
export type Mover = 'partner' | 'staff' | 'sandbox' | 'system';

export type TransitionOutcome = { ok: true; events: WebhookEvent[] } | { ok: false; message: string };

/** Decides a move without I/O: whether it is allowed, and which events it emits. */
export function transition(from: OrderStatus, to: OrderStatus, by: Mover): TransitionOutcome {
  if (by === 'partner') {
    if (to !== 'CANCEL' || !PARTNER_CANCELLABLE.includes(from))
      return { ok: false, message: `Order in status ${from} cannot be cancelled` };
  } else if (by === 'system') {
    if (to !== 'CANCEL' || !EXPIRABLE.includes(from))
      return { ok: false, message: `Order in status ${from} cannot expire` };
  } else if (!STAFF_MOVES[from].includes(to)) {
    return { ok: false, message: refusal(from, to) };
  }
  return { ok: true, events: to === 'CANCEL' ? ['order.status_changed', 'order.cancelled'] : ['order.status_changed'] };
}

function refusal(from: OrderStatus, to: OrderStatus): string {
  if (from === to) return `Order is already in status ${from}`;
  const allowed = STAFF_MOVES[from];
  if (allowed.length === 0) return `Order in status ${from} cannot move to ${to}: ${from} is final`;
  return `Order in status ${from} cannot move to ${to}; allowed: ${allowed.join(', ')}`;
}
