import { describe, expect, it } from 'vitest';
import type { Direction } from '../../../src/features/pricing/estimate.js';
import { price } from '../../../src/features/pricing/price.js';

// USD → EUR at 0.9215, for 10 to 10000 USD (the limits as numeric(38,18) writes them).
const offer = {
  id: 7,
  currency1Id: 1,
  rate: '0.9215',
  minAmount: '10.000000000000000000',
  maxAmount: '10000.000000000000000000',
};
const currencies = {
  USD: { id: 1, code: 'USD', decimals: 2 },
  EUR: { id: 2, code: 'EUR', decimals: 2 },
  JPY: { id: 3, code: 'JPY', decimals: 0 },
};
const { USD, JPY } = currencies;
type Code = keyof typeof currencies;

describe('price() — an offer prices an amount either way', () => {
  it.each([
    // [source, dest, amount, direction, isReverse, sourceAmount, destAmount]
    ['USD', 'EUR', '100', 'source', false, '100', '92.15'],
    ['EUR', 'USD', '92.15', 'source', true, '92.15', '100'], // the offer read backwards: ÷ rate
    ['USD', 'EUR', '92.15', 'dest', false, '100', '92.15'],
    ['EUR', 'USD', '100', 'dest', true, '92.15', '100'],
    ['EUR', 'USD', '10', 'source', true, '10', '10.85'], // 10.8518… rounded down
  ] as const)(
    '%s → %s: %s (%s)',
    (source: Code, dest: Code, amount, direction, isReverse, sourceAmount, destAmount) => {
      expect(price(offer, currencies[source], currencies[dest], amount, direction)).toEqual({
        ok: true,
        price: { offerId: 7, rate: '0.9215', isReverse, sourceAmount, destAmount },
      });
    },
  );

  it.each([
    // [source, dest, amount, direction, code, message for the field "amount"]
    ['USD', 'EUR', '5', 'source', 'belowMinimum', 'amount is below the minimum of 10 USD for this offer'],
    ['EUR', 'USD', '5', 'source', 'belowMinimum', 'amount is below the minimum of 10 USD for this offer'], // limits are in currency1
    ['USD', 'EUR', '20000', 'source', 'aboveMaximum', 'amount is above the maximum of 10000 USD for this offer'],
    [
      'USD',
      'EUR',
      '100.001',
      'source',
      'tooManyDecimals',
      'amount has more than 2 decimal places, the precision of USD',
    ],
    ['USD', 'EUR', '92.151', 'dest', 'tooManyDecimals', 'amount has more than 2 decimal places, the precision of EUR'], // the given amount's currency
  ] as const)('refuses %s → %s: %s (%s) as %s', (source: Code, dest: Code, amount, direction, code, message) => {
    const outcome = price(offer, currencies[source], currencies[dest], amount, direction as Direction);
    expect(outcome).toMatchObject({ ok: false, code });
    if (!outcome.ok) expect(outcome.message('amount')).toBe(message);
  });

  it('names the field that carried the amount, and refuses an amount that rounds to nothing', () => {
    const cheap = { id: 8, currency1Id: 3, rate: '0.006', minAmount: '0', maxAmount: '1000000' };
    const outcome = price(cheap, JPY, USD, '1', 'source');
    expect(outcome).toMatchObject({ ok: false, code: 'tooSmall' });
    if (!outcome.ok) expect(outcome.message('clientAmount')).toBe('clientAmount is too small to be exchanged');
  });
});
