import { Dec, divide, isStorableAmount, ROUND_DOWN, ROUND_UP, storedDec } from './decimal.js';

export type Direction = 'source' | 'dest';

export interface PricedOffer {
  /** Units of currency2 for one unit of currency1, exactly as stored. */
  rate: string;
  minAmount: string;
  maxAmount: string;
}

export interface EstimateInput {
  offer: PricedOffer;
  /** false: source = currency1 (dest = source × rate); true: source = currency2 (dest = source ÷ rate). */
  isReverse: boolean;
  amount: string;
  direction: Direction;
  sourceDecimals: number;
  destDecimals: number;
}

export type EstimateOutcome =
  | { ok: true; sourceAmount: string; destAmount: string }
  | {
      ok: false;
      field: 'amount';
      code: 'belowMinimum' | 'aboveMaximum' | 'tooManyDecimals' | 'tooSmall' | 'tooLarge';
      limit?: string;
    };

/**
 * The one pricing rule, used by the estimate and by order creation. With direction `source` the destination
 * amount is rounded down to its currency's decimals; with `dest` the source amount is rounded up: the house
 * never gives away a fraction. The currency1-side amount must lie within the offer's limits.
 */
export function estimate(input: EstimateInput): EstimateOutcome {
  const amount = new Dec(input.amount);
  const rate = storedDec(input.offer.rate);
  const givenDecimals = input.direction === 'source' ? input.sourceDecimals : input.destDecimals;
  if (amount.decimalPlaces() > givenDecimals)
    return { ok: false, field: 'amount', code: 'tooManyDecimals', limit: String(givenDecimals) };

  let source: Dec;
  let dest: Dec;
  if (input.direction === 'source') {
    source = amount;
    const exact = input.isReverse ? divide(amount, rate, ROUND_DOWN) : amount.times(rate);
    dest = exact.toDecimalPlaces(input.destDecimals, ROUND_DOWN);
  } else {
    dest = amount;
    const exact = input.isReverse ? amount.times(rate) : divide(amount, rate, ROUND_UP);
    source = exact.toDecimalPlaces(input.sourceDecimals, ROUND_UP);
  }

  const currency1Amount = input.isReverse ? dest : source;
  if (currency1Amount.lessThan(storedDec(input.offer.minAmount)))
    return { ok: false, field: 'amount', code: 'belowMinimum', limit: input.offer.minAmount };
  if (currency1Amount.greaterThan(storedDec(input.offer.maxAmount)))
    return { ok: false, field: 'amount', code: 'aboveMaximum', limit: input.offer.maxAmount };
  if (!source.isPositive() || source.isZero() || !dest.isPositive() || dest.isZero())
    return { ok: false, field: 'amount', code: 'tooSmall' };
  // The limits bound the currency1 side only; a large rate can take the other past what an order can hold.
  if (!isStorableAmount(source) || !isStorableAmount(dest)) return { ok: false, field: 'amount', code: 'tooLarge' };

  return { ok: true, sourceAmount: source.toFixed(), destAmount: dest.toFixed() };
}
