import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../src/db/schema.js';
import { ORDER_STATUSES, transition } from '../../../src/features/orders/transitions.js';

// The staff moves (docs/decisions.md, "Orders"), written out pair by pair: every (from, to) of the 6 × 6 grid.
const STAFF_ALLOWED = new Set([
  'ORDERINIT→CLIENTPAYMENTWAIT',
  'ORDERINIT→CANCEL',
  'CLIENTPAYMENTWAIT→EXCHANGEPAYMENTWAIT',
  'CLIENTPAYMENTWAIT→CANCEL',
  'EXCHANGEPAYMENTWAIT→CASHOUT',
  'EXCHANGEPAYMENTWAIT→SUCCESS',
  'EXCHANGEPAYMENTWAIT→CANCEL',
  'CASHOUT→SUCCESS',
  'CASHOUT→CANCEL',
]);
const PARTNER_ALLOWED = new Set(['ORDERINIT→CANCEL', 'CLIENTPAYMENTWAIT→CANCEL']);
const grid = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]));

describe('transition(): staff moves', () => {
  it.each(grid)('%s → %s', (from, to) => {
    const outcome = transition(from, to, 'staff');
    expect(outcome.ok).toBe(STAFF_ALLOWED.has(`${from}→${to}`));
    if (outcome.ok)
      expect(outcome.events).toEqual(
        to === 'CANCEL' ? ['order.status_changed', 'order.cancelled'] : ['order.status_changed'],
      );
  });

  it.each([
    ['ORDERINIT', 'SUCCESS', 'Order in status ORDERINIT cannot move to SUCCESS; allowed: CLIENTPAYMENTWAIT, CANCEL'],
    [
      'CASHOUT',
      'EXCHANGEPAYMENTWAIT',
      'Order in status CASHOUT cannot move to EXCHANGEPAYMENTWAIT; allowed: SUCCESS, CANCEL',
    ],
    ['SUCCESS', 'CANCEL', 'Order in status SUCCESS cannot move to CANCEL: SUCCESS is final'],
    ['CANCEL', 'ORDERINIT', 'Order in status CANCEL cannot move to ORDERINIT: CANCEL is final'],
    ['CLIENTPAYMENTWAIT', 'CLIENTPAYMENTWAIT', 'Order is already in status CLIENTPAYMENTWAIT'],
  ] as const)('refuses %s → %s with a message naming both', (from, to, message) => {
    expect(transition(from, to, 'staff')).toEqual({ ok: false, message });
  });
});

describe('transition(): partner cancel', () => {
  it.each(grid)('%s → %s', (from, to) => {
    const outcome = transition(from, to, 'partner');
    expect(outcome.ok).toBe(PARTNER_ALLOWED.has(`${from}→${to}`));
    if (!outcome.ok) expect(outcome.message).toBe(`Order in status ${from} cannot be cancelled`);
  });
});

describe('transition(): the system (an expired payment window)', () => {
  it.each(grid)('%s → %s', (from, to) => {
    const outcome = transition(from, to, 'system');
    // The same two moves as a partner's cancel: only an order still waiting for the client's payment expires.
    expect(outcome.ok).toBe(PARTNER_ALLOWED.has(`${from}→${to}`));
    if (outcome.ok) expect(outcome.events).toEqual(['order.status_changed', 'order.cancelled']);
    else expect(outcome.message).toBe(`Order in status ${from} cannot expire`);
  });
});
