import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Dec, divide, ROUND_DOWN, ROUND_UP, storedDec } from '../../../src/features/pricing/decimal.js';

/** divide() as it was written before it copied instances: through each number's string. */
function divideThroughStrings(a: Dec, b: Dec, rounding: number): string {
  const D = Dec.clone({ rounding: rounding as Decimal.Rounding });
  return new Dec(new D(a.toString()).div(new D(b.toString())).toString()).toFixed();
}

describe('decimal helpers of the pricing rule', () => {
  it('divide() gives the digits of the division through strings, rounding down and up', () => {
    const values = [
      '1',
      '3',
      '7',
      '0.915',
      '1.000000000000000001',
      '99999999999999999999.99',
      '0.000000000000000001',
      '123456789012345678.123456789012345678',
      '2.5',
      '1e-7',
      '33333333333333333333333333333333333333.3',
    ];
    for (const a of values) {
      for (const b of values) {
        for (const rounding of [ROUND_DOWN, ROUND_UP]) {
          expect(divide(new Dec(a), new Dec(b), rounding).toFixed(), `${a} / ${b} (${rounding})`).toBe(
            divideThroughStrings(new Dec(a), new Dec(b), rounding),
          );
        }
      }
    }
  });

  it('storedDec() parses a stored decimal once and gives its exact value', () => {
    expect(storedDec('0.915000000000000000')).toBe(storedDec('0.915000000000000000'));
    expect(storedDec('123456789012345678.123456789012345678').toFixed()).toBe('123456789012345678.123456789012345678');
    // Past its limit the map starts again rather than growing: values stay right.
    for (let i = 0; i < 3000; i++) expect(storedDec(`${i}.5`).toFixed()).toBe(`${i}.5`);
  });
});
