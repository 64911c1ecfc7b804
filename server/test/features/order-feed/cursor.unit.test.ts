import { describe, expect, it } from 'vitest';
import { IdCursor } from '../../../src/features/order-feed/cursor.js';
import { canSee } from '../../../src/features/order-feed/visibility.js';

describe('IdCursor', () => {
  it('moves over ids seen in order', () => {
    const c = new IdCursor(10, 1000);
    expect([11, 12, 13].map((id) => c.add(id))).toEqual([true, true, true]);
    c.settle(0);
    expect(c.low).toBe(13);
    expect(c.pending).toEqual([]);
    expect(c.add(12)).toBe(false);
  });

  it('waits at a gap for the missing id, then passes it once it is seen', () => {
    const c = new IdCursor(10, 1000);
    c.add(12);
    c.add(13);
    c.settle(0);
    expect(c.low).toBe(10);
    expect(c.pending.sort()).toEqual([12, 13]);
    expect(c.add(13)).toBe(false);
    c.settle(500);
    expect(c.low).toBe(10);
    expect(c.add(11)).toBe(true);
    c.settle(600);
    expect(c.low).toBe(13);
  });

  it('gives a gap up after the wait, and waits anew at the next one', () => {
    const c = new IdCursor(0, 1000);
    for (const id of [2, 3, 5]) c.add(id);
    c.settle(0);
    expect(c.low).toBe(0);
    c.settle(999);
    expect(c.low).toBe(0);
    c.settle(1000);
    expect(c.low).toBe(3);
    c.settle(1500);
    expect(c.low).toBe(3);
    c.settle(2000);
    expect(c.low).toBe(5);
    expect(c.pending).toEqual([]);
  });
});

describe('canSee', () => {
  const place = { branchId: 1, exchangeId: 7 };
  it.each([
    ['a superadmin', { branchId: null, exchangeIds: null }, true],
    ['an admin of the branch', { branchId: 1, exchangeIds: null }, true],
    ['an admin of another branch', { branchId: 2, exchangeIds: null }, false],
    ['an operator of the exchange', { branchId: 1, exchangeIds: [3, 7] }, true],
    ['an operator of other exchanges', { branchId: 1, exchangeIds: [3] }, false],
    ['an operator without exchanges', { branchId: 1, exchangeIds: [] }, false],
    ['an operator of another branch with the same exchange id', { branchId: 2, exchangeIds: [7] }, false],
  ])('%s: %s', (_who, scope, visible) => {
    expect(canSee(scope, place)).toBe(visible);
  });
});
