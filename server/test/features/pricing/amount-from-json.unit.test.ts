import { describe, expect, it } from 'vitest';
import { amountFromJson, Dec } from '../../../src/features/pricing/decimal.js';

describe('amountFromJson() — a JSON number as an exact decimal string', () => {
  it.each([
    [250.5, '250.5'],
    [100, '100'],
    [0.1, '0.1'],
    [0.000001, '0.000001'],
    [1e-7, '0.0000001'],
    [1.5e-8, '0.000000015'],
    [123456789.12345678, '123456789.12345678'],
    [1e20, '100000000000000000000'],
    [1e21, '1000000000000000000000'],
    /* eslint-disable no-loss-of-precision -- the case: a literal JSON.parse reads as 2^53 */
    [2.5e25, '25000000000000000000000000'],
    [9007199254740993, '9007199254740992'],
    /* eslint-enable no-loss-of-precision */
  ])('%s → %s', (value, text) => {
    expect(amountFromJson(value)).toBe(text);
  });

  it('gives the digits decimal.js gives, for numbers of every magnitude', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5_000; i++) {
      const value = Number((random() * 10 ** Math.floor(random() * 30 - 9)).toPrecision(1 + Math.floor(random() * 17)));
      expect(amountFromJson(value)).toBe(new Dec(value).toFixed());
    }
  });
});
