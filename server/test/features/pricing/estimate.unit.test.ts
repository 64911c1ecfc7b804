import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/features/pricing/estimate.js';

const offer = { rate: '3', minAmount: '1', maxAmount: '1000' };

describe('estimate() — the pure pricing rule', () => {
  it.each([
    // [isReverse, direction, amount, srcDec, dstDec, source, dest]
    [false, 'source', '10', 2, 2, '10', '30'],
    [true, 'source', '10', 2, 2, '10', '3.33'], // 10 ÷ 3 = 3.333… down
    [true, 'dest', '3.34', 2, 2, '10.02', '3.34'], // 3.34 × 3 = 10.02 exactly, no rounding
    [false, 'dest', '10', 2, 2, '3.34', '10'], // 10 ÷ 3 = 3.333… up
    [false, 'dest', '9', 2, 2, '3', '9'], // exact quotient stays exact
    [false, 'source', '1', 0, 8, '1', '3'],
    [true, 'source', '1000', 0, 0, '1000', '333'],
    [true, 'dest', '333', 0, 0, '999', '333'],
  ] as const)(
    'reverse=%s direction=%s amount=%s',
    (isReverse, direction, amount, sourceDecimals, destDecimals, source, dest) => {
      expect(estimate({ offer, isReverse, direction, amount, sourceDecimals, destDecimals })).toEqual({
        ok: true,
        sourceAmount: source,
        destAmount: dest,
      });
    },
  );

  it("rounds the destination down and the source up, never in the client's favour", () => {
    const r = { rate: '0.333333333333333333', minAmount: '0', maxAmount: '1000000' };
    const down = estimate({
      offer: r,
      isReverse: false,
      direction: 'source',
      amount: '1',
      sourceDecimals: 2,
      destDecimals: 2,
    });
    expect(down).toEqual({ ok: true, sourceAmount: '1', destAmount: '0.33' });
    const up = estimate({
      offer: r,
      isReverse: false,
      direction: 'dest',
      amount: '0.33',
      sourceDecimals: 2,
      destDecimals: 2,
    });
    // 0.33 ÷ 0.333333333333333333 = 0.99000000000000000099 → up to 1
    expect(up).toEqual({ ok: true, sourceAmount: '1', destAmount: '0.33' });
  });

  it('keeps exact results when the quotient sits on a rounding boundary', () => {
    // 1 ÷ 0.125 = 8 exactly: rounding up must not add a cent.
    expect(
      estimate({
        offer: { rate: '0.125', minAmount: '0', maxAmount: '100' },
        isReverse: false,
        direction: 'dest',
        amount: '1',
        sourceDecimals: 2,
        destDecimals: 2,
      }),
    ).toEqual({ ok: true, sourceAmount: '8', destAmount: '1' });
  });

  it('handles numbers beyond float precision exactly', () => {
    const big = { rate: '1.000000000000000001', minAmount: '0', maxAmount: '1e30' };
    expect(
      estimate({
        offer: big,
        isReverse: false,
        direction: 'source',
        amount: '123456789012345678',
        sourceDecimals: 0,
        destDecimals: 18,
      }),
    ).toEqual({ ok: true, sourceAmount: '123456789012345678', destAmount: '123456789012345678.123456789012345678' });
  });

  it.each([
    ['belowMinimum', '0.99', false, 'source'],
    ['aboveMaximum', '1000.01', false, 'source'],
    // reverse: the currency1 side is the destination: 3003 ÷ 3 = 1001 > 1000
    ['aboveMaximum', '3003', true, 'source'],
    ['tooManyDecimals', '1.001', false, 'source'],
  ] as const)('refuses with %s', (code, amount, isReverse, direction) => {
    expect(estimate({ offer, isReverse, direction, amount, sourceDecimals: 2, destDecimals: 2 })).toMatchObject({
      ok: false,
      field: 'amount',
      code,
    });
  });

  it('refuses an amount whose counter-amount rounds to zero', () => {
    expect(
      estimate({
        offer: { rate: '0.001', minAmount: '0', maxAmount: '100' },
        isReverse: false,
        direction: 'source',
        amount: '1',
        sourceDecimals: 2,
        destDecimals: 2,
      }),
    ).toMatchObject({ ok: false, code: 'tooSmall' });
  });
});
